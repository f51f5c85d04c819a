/**
 * An escrow that is not the Escrow. The escrow a paid start deposits into
 * is the one the node names (`payment.escrowAddress`), checked only to be
 * an address with the Escrow's view functions: a node that names a
 * contract of its own (here 72 bytes: any call answers zeros, `deposit`
 * pulls the amount to itself) has tidepool approve it and "deposit" the
 * job's price into it. The real Escrow never sees the deposit, so the
 * node's lock there fails and no job starts, and the payer's 0.75 Ocean is
 * gone for good: neither in the wallet nor in the Escrow, where
 * `withdrawEscrow` would take it back (read with viem). The class: a
 * contract address the node chooses, trusted as the Escrow. Members: the
 * escrow named at the quote and at the start alike.
 *
 * Fixed: the escrow must be the one trusted on the chain (the caller's
 * `escrowAddress`, or ocean-contracts' list): the node's contract is
 * refused before anything is sent, and with no Escrow known on the chain a
 * charge is refused too.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { OceanNode } from "../../mod.ts";
import { hostileNode } from "./_money_world.ts";
import { deployThief, escrowWorld, payer } from "./_escrow_world.ts";

type Json = Record<string, unknown>;

Deno.test({
  name: "a node naming its own contract as the escrow takes no deposit",
  fn: async () => {
    const world = await escrowWorld();
    try {
      const thief = await deployThief(world);
      const proxy = hostileNode(world.ocean.url, (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { payment: Json };
        return { ...terms, payment: { ...terms.payment, escrowAddress: thief } };
      });
      try {
        const { address, request } = await payer(world);
        const node = new OceanNode(proxy.url, { progress: false, retry: false });
        const sent = await world.sent(address);
        const refused = await node.startCompute(request).then(() => undefined, (e) => e);
        assert.match(String(refused?.message), /not the Escrow contract trusted on chain/);
        // Without an Escrow known on the chain, the node's word is not taken either.
        const { escrowAddress: _, ...untrusting } = request;
        const unknown = await node.startCompute(untrusting).then(() => undefined, (e) => e);
        assert.match(String(unknown?.message), /no Escrow contract is known on chain/);
        assert.match(String(unknown?.hint), /escrowAddress/);
        assert.equal(await world.sent(address), sent, "nothing was sent");
        const funds = await world.funds(address);
        const thiefHolds = await world.balance(world.chain.contracts.oceanToken, thief);
        assert.equal(thiefHolds, 0n, "the node's contract took nothing");
        assert.equal(
          await world.oceanOf(address) + funds.available + funds.locked,
          parseEther("10"),
          "every Ocean is in the wallet or in the Escrow",
        );
      } finally {
        await proxy.close();
      }
    } finally {
      await world.close();
    }
  },
});
