/**
 * Buying data is part of the root module: a user imports the order and
 * paid compute functions from `@tidepool/tidepool` like the rest, and viem
 * still loads only with the first order (eager_imports_test.ts).
 */

import assert from "node:assert/strict";
import * as tidepool from "../../mod.ts";

Deno.test("mod.ts exports ordering, order history and their constants", () => {
  const functions = [
    "orderAsset",
    "orderDatatoken",
    "prepareOrder",
    "downloadAsset",
    "chainOrders",
    "compareOrders",
  ] as const;
  for (const name of functions) {
    assert.equal(typeof tidepool[name], "function", `${name} is exported from mod.ts`);
  }
  assert.equal(tidepool.SANDBOX_CHAIN_ID, 31337);
  assert.ok(tidepool.chainOrderSchema.columns.some((c) => c.name === "tx"));
  assert.equal(typeof tidepool.OceanNode.prototype.startCompute, "function");
  assert.equal(typeof tidepool.OceanNode.prototype.initializeCompute, "function");
});
