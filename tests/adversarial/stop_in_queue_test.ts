/**
 * A stop while the order waits for the wallet's lane (another order of the
 * same wallet is being sent) is told as a stop: a `TidepoolError` that says
 * nothing was sent. The lane's wait rejects with the signal's bare reason
 * instead, so the caller gets whatever it aborted with (a string, which is
 * no error at all), or viem's "The signal has been aborted" wrapped with a
 * hint that blames the chain. Checked on anvil: nothing sent.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { inTransactionLane } from "../../lib/ocean/order/_transaction_lane.ts";
import { moneyWorld, privateStateDir } from "./_money_world.ts";

Deno.test("a stop while waiting for the wallet's lane is told as a stop", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain } = world;
  const { documentId: did, serviceId } = world.download;
  try {
    for (const reason of ["the user pressed stop", undefined]) {
      await t.step(`aborted with ${reason === undefined ? "no reason" : "a string"}`, async () => {
        const signer = signerFromPrivateKey(generatePrivateKey());
        await chain.fund(signer.address, "10");
        const node = new OceanNode(ocean.url, { progress: false, retry: false });
        // Another order of this wallet holds the lane.
        let release!: () => void;
        let holding!: () => void;
        const held = new Promise<void>((resolve) => holding = resolve);
        const busy = inTransactionLane(chain.chainId, signer.address, () => {
          holding();
          return new Promise<void>((resolve) => release = resolve);
        });
        await held;
        const stop = new AbortController();
        const waiting = orderAsset(node, {
          did,
          serviceId,
          signer,
          rpcUrl: chain.rpcUrl,
          signal: stop.signal,
        }).then(() => "ordered", (error) => error);
        await new Promise((resolve) => setTimeout(resolve, 300));
        stop.abort(reason);
        const error = await waiting;
        release();
        await busy;
        assert.equal(await world.sent(signer.address), 0, "nothing was sent");
        assert.ok(
          error instanceof TidepoolError,
          `a TidepoolError, not ${typeof error} ${String(error)}`,
        );
        assert.match(error.message, /stopped by the signal/);
        assert.doesNotMatch(String(error.hint), /chain at/);
      });
    }
  } finally {
    await world.close();
  }
});
