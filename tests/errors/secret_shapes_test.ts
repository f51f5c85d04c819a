/**
 * No part of a secret appears in what tidepool shows or stores, whatever
 * argument it came in: a password in a URL, a private key (0x-prefixed or
 * bare) passed where a variable's name, a signer, an address or a URL goes,
 * a key in a header that a hostile server echoes back. Every error path is
 * read whole (message, details, hint, `String(error)`, `error.stack`, the
 * cause), and so are the cache files and the progress events; no 8-character
 * piece of the secret may be in any of them.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { Archive, OceanNode, signerFromEnv } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import type { ProgressEvent } from "../../lib/progress/progress.ts";

/** Random text of the given alphabet, so no piece of it is in ordinary text. */
function randomText(length: number, alphabet: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
const HEX = "0123456789abcdef";
const WORD = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** The pieces of `secret`, 8 characters each, found in `text` (case-insensitively). */
function pieces(secret: string, text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8).toLowerCase();
    if (lower.includes(piece)) found.push(piece);
  }
  return found;
}

/** Everything an error can show: its fields, text, stack and causes. */
function everything(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as Record<string, unknown> & Error;
    parts.push(String(e), e.message ?? "", e.stack ?? "", JSON.stringify(e));
    for (const field of ["details", "hint", "body", "serverMessage", "url", "shortMessage"]) {
      if (typeof e[field] === "string") parts.push(e[field] as string);
    }
    current = e.cause;
  }
  return parts.join("\n");
}

function assertNoPiece(secret: string, text: string, where: string) {
  assert.deepEqual(pieces(secret, text), [], `${where} shows part of the secret`);
}

async function failure(run: () => unknown): Promise<TidepoolError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof TidepoolError, `expected a TidepoolError, got ${error}`);
    return error;
  }
  throw new Error("expected a failure");
}

/** Every file below a folder, as text. */
async function filesText(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    text += entry.isDirectory ? await filesText(path) : await Deno.readTextFile(path);
  }
  return text;
}

/** A server that echoes back what the request carried: its credentials, decoded. */
function echoingServer(status: number) {
  return serveLocal((request) => {
    const auth = request.headers.get("authorization") ?? "";
    const decoded = auth.startsWith("Basic ") ? atob(auth.slice(6)) : auth;
    const key = request.headers.get("x-api-key") ?? "";
    return Response.json(
      { error: `refused ${decoded} ${key} at ${request.url}`, echo: [decoded, key] },
      { status },
    );
  }, { maxRequests: 100 });
}

Deno.test("a password in the URL: HttpError, network error, CacheMissError, cache files, progress", async () => {
  const password = randomText(24, WORD);
  const user = `u${randomText(11, WORD)}`;
  const server = echoingServer(500);
  const closed = serveLocal(() => new Response("never"));
  const closedPort = new URL(closed.url).port;
  await closed.close();
  const dir = await Deno.makeTempDir();
  const events: ProgressEvent[] = [];
  try {
    const base = (port: string) => `http://${user}:${password}@127.0.0.1:${port}`;
    const port = new URL(server.url).port;
    const texts: [string, string][] = [];

    const http = new HttpClient(base(port), { retry: false, progress: false, cache: false });
    texts.push(["HttpError", everything(await failure(() => http.request({ path: "/x" })))]);

    const offline = new HttpClient(base(closedPort), { retry: false, progress: false });
    texts.push(["network error", everything(await failure(() => offline.request({ path: "/x" })))]);

    const replay = new HttpClient(base(port), { progress: false, cache: { dir, mode: "replay" } });
    texts.push(["CacheMissError", everything(await failure(() => replay.request({ path: "/y" })))]);

    const ok = serveLocal(() => Response.json({ data: [], meta: { total: 0 } }));
    try {
      const okPort = new URL(ok.url).port;
      const recorder = new HttpClient(base(okPort), {
        progress: false,
        cache: { dir, mode: "record" },
      });
      await recorder.request({ path: "/z", query: { q: "1" } });
      const archive = new Archive(base(okPort), {
        account: "acme",
        db: "letters",
        progress: (event) => events.push(event),
        cache: false,
      });
      await archive.resources();
    } finally {
      await ok.close();
    }
    texts.push(["cache files", await filesText(dir)]);
    texts.push(["progress", JSON.stringify(events)]);
    assert.ok(events.length > 0);
    for (const [where, text] of texts) {
      assert.ok(text.length > 0, where);
      assertNoPiece(password, text, where);
      assertNoPiece(user, text, where);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a key in a header that the server echoes back is not printed", async () => {
  const key = `k-${randomText(30, WORD)}`;
  const token = randomText(40, WORD);
  for (const status of [400, 403, 500]) {
    const server = echoingServer(status);
    try {
      const http = new HttpClient(server.url, {
        retry: false,
        progress: false,
        headers: { "x-api-key": key },
      });
      const error = await failure(() =>
        http.request({ path: "/x", headers: { authorization: `Bearer ${token}` } })
      );
      assertNoPiece(key, everything(error), `${status} x-api-key`);
      assertNoPiece(token, everything(error), `${status} bearer token`);
    } finally {
      await server.close();
    }
  }
});

Deno.test("a private key where a variable name, a signer, an address or a URL goes", async () => {
  const bare = randomText(64, HEX);
  for (const key of [`0x${bare}`, bare, `0x${bare.toUpperCase()}`]) {
    const node = new OceanNode("http://127.0.0.1:9", { progress: false, retry: false });
    const job = { jobId: "j", owner: "0x0000000000000000000000000000000000000001", results: [] };
    const errors: [string, TidepoolError][] = [
      ["signerFromEnv(key)", await failure(() => signerFromEnv(key))],
      [
        "downloadResults({ signer: key })",
        // deno-lint-ignore no-explicit-any
        await failure(() => node.downloadResults(job as any, { signer: key as any, dir: "x" })),
      ],
      ["nonce(key)", await failure(() => node.nonce(key))],
      ["new OceanNode(key)", await failure(() => new OceanNode(key))],
    ];
    for (const [where, error] of errors) {
      assertNoPiece(bare, everything(error), `${where} (${key.slice(0, 2)})`);
    }
    assert.match(errors[0][1].message, /name of an environment variable/);
    assert.match(errors[1][1].message, /not shown: it looks like a key/);
  }
});

/** A server that echoes back only a piece of the key it was sent: its start, its end, its middle. */
function pieceEchoingServer(piece: (key: string) => string, status: number) {
  return serveLocal((request) => {
    const key = request.headers.get("x-api-key") ?? "";
    return Response.json(
      { error: `key ${piece(key)}... is not known`, hint: `keys end in ...${key.slice(-10)}` },
      { status },
    );
  }, { maxRequests: 100 });
}

Deno.test("a server that echoes a piece of a key shows it in no error and no recording", async () => {
  const key = `k-${randomText(30, WORD)}`;
  const cuts: [string, (k: string) => string][] = [
    ["its first 12 characters", (k) => k.slice(0, 12)],
    ["its middle", (k) => k.slice(9, 19)],
    ["its last 9, upper case", (k) => k.slice(-9).toUpperCase()],
  ];
  for (const [what, piece] of cuts) {
    for (const status of [200, 401]) {
      const server = pieceEchoingServer(piece, status);
      const dir = await Deno.makeTempDir();
      try {
        const http = new HttpClient(server.url, {
          retry: false,
          progress: false,
          headers: { "x-api-key": key },
          cache: { dir, mode: "record" },
        });
        if (status === 200) {
          const answer = await http.request({ path: "/x" });
          assert.match(await answer.text(), /is not known/, "the live answer is the server's");
        } else {
          assertNoPiece(key, everything(await failure(() => http.request({ path: "/x" }))), what);
        }
        const stored = await filesText(dir);
        const bodies = [...stored.matchAll(/"bodyBase64":"([^"]*)"/g)]
          .map((m) =>
            new TextDecoder().decode(Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0)))
          );
        assert.ok(bodies.length > 0, "the answer was recorded");
        assertNoPiece(key, stored + bodies.join("\n"), `recording of ${what}, ${status}`);
      } finally {
        await server.close();
        await Deno.remove(dir, { recursive: true });
      }
    }
  }
});

Deno.test("keys of letters only are redacted in pieces too (one random key in a hundred has no digit)", async () => {
  const { registerSecret, redact } = await import("../../lib/errors/redact.ts");
  const keys = [
    randomText(32, "abcdefghijkmnopqrstuvwxyz"),
    randomText(14, "ABCDEFGHJKLMNPQRSTUVWXYZ") + "ab",
    `k-${randomText(30, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")}`,
  ];
  for (const key of keys) {
    registerSecret(key);
    for (const piece of [key.slice(0, 12), key.slice(3, 13).toUpperCase(), key.slice(-9)]) {
      assertNoPiece(
        key,
        redact(`key ${piece}... is not known`),
        `a piece of ${key.length} letters`,
      );
    }
  }
});

Deno.test("pieces of a path or of words registered as secret do not mangle ordinary text", async () => {
  const { registerSecret, redact } = await import("../../lib/errors/redact.ts");
  registerSecret("/api/v1/rpc-gateway");
  registerSecret("correct horse battery staple");
  const text = "GET /api/v1/resources: correct horse battery";
  assert.equal(redact(text), text);
  assert.equal(redact("GET /api/v1/rpc-gateway"), "GET [redacted]");
});

Deno.test("a key's runs of one or two characters are not redacted from numbers", async () => {
  const { registerSecret, redact } = await import("../../lib/errors/redact.ts");
  registerSecret(`0x${"1".repeat(32)}${randomText(32, HEX)}`);
  registerSecret(`0x${"0".repeat(40)}${randomText(24, HEX)}`);
  assert.equal(
    redact("paid 1000000000000000000 wei, 11111111 units"),
    "paid 1000000000000000000 wei, 11111111 units",
  );
});
