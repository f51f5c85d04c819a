/**
 * A lock the quote never showed. A node whose `initializeCompute` says the
 * job costs nothing through the escrow (`payment.amount` "0", or no
 * `payment` at all) gets a start with no escrow part: no cap is asked for,
 * the authorization is not narrowed, nothing is read. When the payer has a
 * standing authorization of that node and funds free in the escrow, the
 * node locks the price at the start all the same: 0.75 Ocean of the
 * payer's escrow, under no `maxPrice`, against "without maxPrice nothing is
 * paid through the escrow". The class: a start the node calls free, paid
 * through a standing authorization. Members: amount "0", no payment.
 * Checked on anvil with viem: the Escrow's funds and locks.
 *
 * Not fixed (ignored): tidepool learns the escrow and payee only from the
 * node's answer, so an answer that names none leaves nothing to narrow;
 * see the report of h-escrowattack.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { OceanNode } from "../../mod.ts";
import { hostileNode } from "./_money_world.ts";
import { escrowWorld, payer } from "./_escrow_world.ts";

type Json = Record<string, unknown>;
const PRICE = parseEther("0.75");

Deno.test({
  name: "a node that quotes no escrow charge locks nothing under a standing authorization",
  ignore: true,
  fn: async (t) => {
    const world = await escrowWorld();
    try {
      const changes: [string, (terms: Json) => Json][] = [
        ["amount 0", (terms) => ({ ...terms, payment: { ...terms.payment as Json, amount: "0" } })],
        ["no payment", ({ payment: _, ...terms }) => terms],
      ];
      for (const [what, change] of changes) {
        await t.step(what, async () => {
          const proxy = hostileNode(
            world.ocean.url,
            (url, body) =>
              url.pathname === "/api/services/initializeCompute" ? change(body as Json) : undefined,
          );
          try {
            const { key, address, request } = await payer(world);
            const { escrow, oceanToken } = world.chain.contracts;
            // The payer's own standing authorization of the node, and 1.5 Ocean free.
            await world.payerSends(key, "approve", [escrow, 2n * PRICE]);
            await world.payerSends(key, "deposit", [oceanToken, 2n * PRICE]);
            await world.payerSends(key, "authorize", [
              oceanToken,
              world.chain.nodeAddress,
              parseEther("10"),
              3600n,
              5n,
            ]);
            const node = new OceanNode(proxy.url, { progress: false, retry: false });
            const { maxPrice: _, ...uncapped } = request;
            await node.startCompute(uncapped).catch(() => undefined);
            assert.deepEqual(
              await world.funds(address),
              { available: 2n * PRICE, locked: 0n },
              "nothing of the escrow was locked without a cap",
            );
          } finally {
            await proxy.close();
          }
        });
      }
    } finally {
      await world.close();
    }
  },
});
