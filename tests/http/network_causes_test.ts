/**
 * A request that got no answer says what happened on this machine, with
 * the host and port and a hint that fits the cause, and never "Server
 * said": connection refused, a connection closed without an answer and a
 * failed TLS handshake for real, on loopback; a name that does not resolve,
 * no route and a script without network permission from the errors Deno's
 * fetch throws for them.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { NetworkError } from "../../lib/errors/errors.ts";

// Each cause here fails within milliseconds on loopback; the timeout only bounds a
// request that hangs, which would show as a TimeoutError instead of the cause.
const quiet = { retry: false as const, progress: false as const, timeoutMs: 60_000 };

/** The error a GET to the URL ends with. */
async function failure(url: string, fetch?: typeof globalThis.fetch): Promise<NetworkError> {
  const http = new HttpClient(url, { ...quiet, fetch });
  const error = await http.request({ path: "/api/x" }).then(
    () => assert.fail("an answer came"),
    (error) => error,
  );
  assert.ok(error instanceof NetworkError, String(error));
  assert.doesNotMatch(error.message, /Server said/);
  assert.match(error.message, /^Cannot reach the service: /);
  return error;
}

/** A fetch that throws what Deno's throws for a cause it cannot be made to meet here. */
const throwing = (message: string, error: Error = new Error(message)) =>
  (() => Promise.reject(new TypeError("fetch failed", { cause: error }))) as typeof fetch;

Deno.test("nothing listening: connection refused, with host and port", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const error = await failure(`http://127.0.0.1:${port}`);
  assert.match(
    error.message,
    new RegExp(`connection refused: nothing listens at 127\\.0\\.0\\.1:${port}`),
  );
  assert.match(error.message, /The system said: .*Connection refused/);
  assert.match(
    error.message,
    new RegExp(
      `What to do: Check the port in the address, and that the service is running at 127\\.0\\.0\\.1:${port}`,
    ),
  );
});

Deno.test("a connection closed before an answer: said so, and what may have dropped it", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const closing = (async () => {
    for await (const connection of listener) connection.close();
  })();
  try {
    const error = await failure(`http://127.0.0.1:${port}`);
    assert.match(
      error.message,
      new RegExp(`the connection to 127\\.0\\.0\\.1:${port} was closed before an answer came`),
    );
    assert.match(error.message, /a proxy, a firewall, a load balancer/);
  } finally {
    listener.close();
    await closing.catch(() => {});
  }
});

Deno.test("https to a plain http server: the TLS handshake failed", async () => {
  const stop = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: stop.signal, onListen() {} },
    () => new Response("plain"),
  );
  try {
    const error = await failure(`https://127.0.0.1:${server.addr.port}`);
    assert.match(error.message, /the TLS handshake with 127\.0\.0\.1:\d+ failed/);
    assert.match(error.message, /serves https \(not plain http\)/);
  } finally {
    stop.abort();
    await server.finished;
  }
});

Deno.test("a name that does not resolve, no route, no permission: each with its own hint", async () => {
  const dns = await failure(
    "http://archive.example.invalid",
    throwing(
      "error sending request for url (http://archive.example.invalid/api/x): client error (Connect): dns error: failed to lookup address information: Name or service not known",
    ),
  );
  assert.match(dns.message, /the name archive\.example\.invalid does not resolve/);
  assert.match(dns.message, /Check the spelling of archive\.example\.invalid/);

  const route = await failure(
    "http://10.255.255.1:8080",
    throwing("client error (Connect): tcp connect error: No route to host (os error 113)"),
  );
  assert.match(route.message, /no route to 10\.255\.255\.1:8080/);
  assert.match(route.message, /a VPN, or a firewall/);

  const denied = await failure(
    "https://node.example",
    (() =>
      Promise.reject(
        new Deno.errors.NotCapable('Requires net access to "node.example:443"'),
      )) as typeof fetch,
  );
  assert.match(
    denied.message,
    /this script may not use the network \(node\.example:443 is not allowed\)/,
  );
  assert.match(denied.message, /--allow-net/);
});
