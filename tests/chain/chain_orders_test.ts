import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  deployOceanContracts,
  publishDatatoken,
  signProviderFee,
  startAnvil,
} from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { orderDatatoken } from "../../lib/ocean/order/order_datatoken.ts";
import { chainOrders, compareOrders } from "../../lib/ocean/order/chain_orders.ts";
import { orderSchema } from "../../lib/subgraph/orders.ts";
import { buildTable } from "../../lib/table/build_table.ts";
import { provenance } from "../../lib/table/provenance.ts";

Deno.test("order history from chain logs: paged by block range, pinned, compared with the subgraph", async () => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const { publicClient } = chainClients(chain);
    // One after the other: the owner's transactions share one nonce sequence.
    const tokens = [];
    for (const symbol of ["A", "B"]) {
      tokens.push(
        await publishDatatoken(chain, contracts, {
          name: symbol,
          symbol,
          pricing: { type: "free" },
        }),
      );
    }
    const node = privateKeyToAccount(generatePrivateKey());
    const buyers = [0, 1].map(() => privateKeyToAccount(generatePrivateKey()));
    for (const buyer of buyers) {
      await publicClient.request({
        method: "anvil_setBalance" as never,
        params: [buyer.address, "0x56BC75E2D63100000"] as never,
      });
    }
    const orders = [];
    for (
      const [buyer, token, serviceIndex] of [
        [buyers[0], tokens[0], 0],
        [buyers[1], tokens[0], 1],
        [buyers[1], tokens[1], 0],
      ] as const
    ) {
      const providerFee = await signProviderFee(node, {
        providerFeeToken: contracts.oceanToken,
        providerFeeAmount: 0n,
        validUntil: Math.floor(Date.now() / 1000) + 600,
        data: { dt: token.datatokenAddress },
      });
      orders.push(
        await orderDatatoken({
          rpcUrl: chain.rpcUrl,
          account: buyer,
          datatoken: token.datatokenAddress,
          serviceIndex,
          providerFee,
        }),
      );
    }
    const all = await chainOrders({ rpcUrl: chain.rpcUrl });
    assert.deepEqual(all.array("tx"), orders.map((o) => o.txHash));
    assert.deepEqual(all.array("serviceIndex"), [0, 1, 0]);
    assert.deepEqual(all.array("consumer"), [
      buyers[0].address.toLowerCase(),
      buyers[1].address.toLowerCase(),
      buyers[1].address.toLowerCase(),
    ]);
    assert.deepEqual(all.array("amount"), [1, 1, 1]);
    // Every column shares its name with the subgraph order table.
    for (const name of all.columnNames()) assert.ok(orderSchema.names.includes(name), name);

    const paged = await chainOrders({ rpcUrl: chain.rpcUrl, pageBlocks: 2n });
    assert.deepEqual(paged.objects(), all.objects());
    const pinned = await chainOrders({ rpcUrl: chain.rpcUrl, toBlock: orders[1].blockNumber });
    assert.equal(pinned.numRows(), 2);
    // Provenance: the chain's origin, the pinned block as "as of", no RPC path.
    const from = provenance(pinned)!;
    assert.equal(from.operation, "chainOrders");
    assert.equal(from.service, new URL(chain.rpcUrl).origin);
    assert.deepEqual(from.params, { toBlock: String(orders[1].blockNumber) });
    assert.equal(from.asOf.block, Number(orders[1].blockNumber));
    assert.equal(typeof from.asOf.chainId, "number");
    assert.equal(from.rows, 2);
    assert.ok(from.endedAt >= from.startedAt);
    const one = await chainOrders({
      rpcUrl: chain.rpcUrl,
      datatokens: [tokens[1].datatokenAddress],
    });
    assert.deepEqual(one.array("tx"), [orders[2].txHash]);

    // A subgraph that lags: it has the first order only, and one the chain never saw.
    const lagging = buildTable(orderSchema, [
      { id: "x", tx: orders[0].txHash },
      { id: "y", tx: `0x${"ab".repeat(32)}` },
    ]);
    const diff = compareOrders(all, lagging);
    const txs = diff.array("tx") as string[];
    const statuses = diff.array("status") as string[];
    const status = Object.fromEntries(txs.map((tx, i) => [tx, statuses[i]]));
    assert.equal(status[orders[0].txHash.toLowerCase()], "both");
    assert.equal(status[orders[1].txHash.toLowerCase()], "missing from subgraph");
    assert.equal(status[orders[2].txHash.toLowerCase()], "missing from subgraph");
    assert.equal(status[`0x${"ab".repeat(32)}`], "not on chain");
  } finally {
    await chain.close();
  }
});
