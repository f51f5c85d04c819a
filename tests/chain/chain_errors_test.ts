/**
 * A provider's RPC URL holds its key in the path: when the chain fails, the
 * error says what failed and where (the origin), and the key appears in no
 * message, stack or cause.
 */

import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { chainOrders, orderDatatoken } from "../../mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const PROVIDER_KEY = "b7c3d1e9a0f24c5e8d6a4b2c0e9f7a15";

/** A JSON-RPC provider that refuses every request, as one does for a key it does not know. */
function refusingProvider() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("invalid project id", { status: 401 }),
  );
  return {
    rpcUrl: `http://127.0.0.1:${server.addr.port}/v3/${PROVIDER_KEY}`,
    origin: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

/** Everything a notebook could show of an error. */
function shown(error: unknown): string {
  return [String(error), (error as Error).stack, Deno.inspect(error, { depth: 10 })].join("\n");
}

/** A JSON-RPC provider whose contract calls all revert. */
function revertingProvider() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const { id } = await request.json();
      return Response.json({
        jsonrpc: "2.0",
        id,
        error: { code: 3, message: "execution reverted", data: "0x" },
      });
    },
  );
  return {
    rpcUrl: `http://127.0.0.1:${server.addr.port}/v3/${PROVIDER_KEY}`,
    close: () => server.shutdown(),
  };
}

const ORDER = {
  account: privateKeyToAccount(generatePrivateKey()),
  datatoken: "0x0000000000000000000000000000000000000001",
  serviceIndex: 0,
  providerFee: {
    providerFeeAddress: "0x0000000000000000000000000000000000000002",
    providerFeeToken: "0x0000000000000000000000000000000000000003",
    providerFeeAmount: "0",
    v: 27,
    r: `0x${"11".repeat(32)}`,
    s: `0x${"22".repeat(32)}`,
    providerData: "0x",
    validUntil: 0,
  },
} as const;

Deno.test("a reverted call is said to be the chain's refusal, not an unreachable chain", async () => {
  const provider = revertingProvider();
  try {
    const error = await orderDatatoken({ ...ORDER, rpcUrl: provider.rpcUrl }).catch((e) => e);
    assert.ok(error instanceof TidepoolError, shown(error));
    assert.match(error.message, /^Cannot prepare the order: .*reverted/);
    assert.match(error.message, /The chain refused the call/);
    assert.doesNotMatch(error.message, /is reachable/);
    assert.ok(!shown(error).includes(PROVIDER_KEY), shown(error));
  } finally {
    await provider.close();
  }
});

Deno.test("a failing chain's errors name its origin, never the key in its URL", async (t) => {
  const provider = refusingProvider();
  try {
    await t.step("chainOrders", async () => {
      const error = await chainOrders({ rpcUrl: provider.rpcUrl }).catch((error) => error);
      assert.ok(error instanceof TidepoolError, shown(error));
      // Chain reads go through tidepool's HTTP client, which tells a refused key apart.
      assert.match(error.message, /^Cannot read orders from the chain: Not authenticated: POST /);
      assert.match(
        error.message,
        new RegExp(`POST ${provider.origin}/\\[redacted\\] answered 401`),
      );
      assert.match(error.message, /Server said: invalid project id/);
      assert.ok(!shown(error).includes(PROVIDER_KEY), shown(error));
    });

    await t.step("orderDatatoken", async () => {
      const error = await orderDatatoken({ ...ORDER, rpcUrl: provider.rpcUrl }).catch((e) => e);
      assert.ok(error instanceof TidepoolError, shown(error));
      assert.match(error.message, /^Cannot prepare the order: HTTP request failed/);
      assert.ok(!shown(error).includes(PROVIDER_KEY), shown(error));
    });
  } finally {
    await provider.close();
  }
});
