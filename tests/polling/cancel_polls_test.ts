import assert from "node:assert/strict";
import { Archive } from "../../lib/archive/mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { SANDBOX_KEYS, startArchiveSandbox } from "../../lib/sandbox/archive/mod.ts";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import { type HoldingProxy, startHoldingProxy } from "./_holding_proxy.ts";
import { BEYOND_HOLD_MS } from "../_events.ts";

// Deno's op and resource sanitizers are on (the default): a timer or a
// socket left open by an aborted poll fails these tests.

/**
 * Aborts once the poll request is held, and checks the poll ends with the
 * abort and its request was cancelled: the proxy answers a held request only
 * after its bound, so a wait that did not cancel it would end on that answer.
 */
async function abortInFlight(proxy: HoldingProxy, wait: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  const waiting = wait(controller.signal);
  const outcome = waiting.then(() => "resolved", (error) => error);
  await proxy.held;
  controller.abort(new Error("stopped by the user"));
  const error = await outcome;
  assert.ok(error instanceof Error, `the wait ${String(error)}`);
  assert.match(error.message, /stopped by the user/);
  // The proxy sees the client leave: the request in flight was cancelled, not left to finish.
  assert.equal(await proxy.released, "aborted");
  assert.equal(proxy.cancelled, 1);
}

Deno.test("waitForJob: aborting cancels the job-list poll in flight", async () => {
  const sandbox = startOceanSandbox({ count: 5 });
  const proxy = startHoldingProxy(sandbox.url, (url) => url.pathname === "/api/services/compute");
  try {
    const node = new OceanNode(proxy.url, {
      progress: false,
      retry: false,
      timeoutMs: BEYOND_HOLD_MS,
    });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    await abortInFlight(
      proxy,
      (signal) => node.waitForJob(signer.address, "a".repeat(32), { pollMs: 10, signal }),
    );
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});

Deno.test("waitForIndexed: aborting cancels the state poll in flight", async () => {
  const sandbox = startOceanSandbox({ count: 5 });
  const proxy = startHoldingProxy(sandbox.url, (url) => url.pathname === "/api/aquarius/state/ddo");
  try {
    const node = new OceanNode(proxy.url, {
      progress: false,
      retry: false,
      timeoutMs: BEYOND_HOLD_MS,
    });
    await abortInFlight(
      proxy,
      (signal) => node.waitForIndexed(`did:op:${"7".repeat(64)}`, { pollMs: 10, signal }),
    );
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});

Deno.test("upload: aborting cancels the conversion poll in flight", async () => {
  const sandbox = await startArchiveSandbox({ conversionMs: 30 });
  const proxy = startHoldingProxy(
    sandbox.url,
    (url, method) => method === "GET" && /^\/api\/[^/]+\/uploads\/[^/]+$/.test(url.pathname),
  );
  try {
    const archive = new Archive(proxy.url, {
      account: "shinano",
      db: "letters",
      apiKey: SANDBOX_KEYS.shinanoWrite,
      progress: false,
      retry: false,
      timeoutMs: BEYOND_HOLD_MS,
    });
    await abortInFlight(
      proxy,
      (signal) => archive.upload(new TextEncoder().encode("not an image"), { pollMs: 10, signal }),
    );
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});
