/**
 * The gas a quote states for each escrow transaction bounds the gas the
 * transaction is sent with. The quote said at most 150,000 for the
 * deposit, which a first deposit of a token was sent with 163,899 (used
 * 154,120) and the first authorization with 148,478 of 150,000: the
 * funding check sums the quoted gas, so a wallet holding what the quote
 * said could run short midway. The class: a quoted gas figure below what
 * the chain takes. Members: the approval, the deposit, the authorization
 * and the authorization set back, each read from its transaction on anvil
 * with viem.
 */

import assert from "node:assert/strict";
import { OceanNode } from "../../mod.ts";
import { escrowWorld, payer } from "./_escrow_world.ts";

Deno.test("each escrow transaction is sent with at most the gas its quote row states", async () => {
  const world = await escrowWorld();
  try {
    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    const { request, address } = await payer(world);
    const quote = await node.quoteCompute(request);
    const rows = (quote.transactions.objects() as Record<string, unknown>[])
      .filter((r) => r.contract === quote.escrow?.escrow.toLowerCase() || r.part === "allowance")
      .filter((r) => r.gas !== null);
    assert.deepEqual(rows.map((r) => r.action), ["approve", "deposit", "authorize", "authorize"]);
    const sentBefore = await world.sent(address);
    await node.startCompute({ ...request, quote });
    // The payer's escrow transactions, in the order sent: the last four it sent.
    const sent: { gas: bigint; used: bigint }[] = [];
    for (let b = await world.reader.getBlockNumber(); b > 0n && sent.length < 4; b--) {
      const block = await world.reader.getBlock({ blockNumber: b, includeTransactions: true });
      for (const tx of [...block.transactions].reverse()) {
        if (typeof tx === "string" || tx.from.toLowerCase() !== address.toLowerCase()) continue;
        const receipt = await world.reader.getTransactionReceipt({ hash: tx.hash });
        if (sent.length < 4) sent.unshift({ gas: tx.gas, used: receipt.gasUsed });
      }
    }
    assert.ok(await world.sent(address) - sentBefore >= 4);
    for (const [i, row] of rows.entries()) {
      assert.ok(
        sent[i].gas <= BigInt(Number(row.gas)),
        `${row.action} (${i}) was sent with ${sent[i].gas} gas (used ${
          sent[i].used
        }), the quote said at most ${row.gas}`,
      );
    }
  } finally {
    await world.close();
  }
});
