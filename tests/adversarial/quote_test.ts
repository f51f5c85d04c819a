/**
 * A quote shows what an order will send and pay, read live, and ordering
 * executes exactly it: the wallet's balance change equals the quote's
 * totals; a quote whose provider fee expired, or that the chain no longer
 * matches (the publisher raised the price), is refused before anything is
 * sent; a paid compute start executes its quote. Checked on anvil.
 */

import assert from "node:assert/strict";
import { parseEther, parseUnits } from "viem";
import { generatePrivateKey } from "viem/accounts";
import {
  OceanNode,
  orderAsset,
  QUOTE_TRANSACTION_COLUMNS,
  quoteOrder,
  signerFromPrivateKey,
  TidepoolError,
} from "../../mod.ts";
import { ARTIFACTS } from "../../lib/sandbox/chain/_artifacts.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { moneyWorld } from "./_money_world.ts";

/** The totals table's rows, typed as its columns declare them. */
const totalsOf = (quote: { totals: { objects(): object[] } }) =>
  quote.totals.objects() as { token: string; symbol: string; amount: string; parts: string }[];

Deno.test("ordering executes the quote the user looked at, and only while it holds", async (t) => {
  const world = await moneyWorld({ extra: 1 });
  const { ocean, chain, example } = world;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const { documentId: did, serviceId } = world.download;
  const buyer = async () => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    return signer;
  };
  try {
    await t.step(
      "the quote's tables, then its execution, and the balance change equals it",
      async () => {
        const signer = await buyer();
        const sent = await world.sent(signer.address);
        const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
        assert.equal(await world.sent(signer.address), sent, "a quote sends nothing");
        assert.deepEqual(quote.transactions.columnNames(), QUOTE_TRANSACTION_COLUMNS.names);
        assert.deepEqual(quote.transactions.array("action"), ["approve", "buy", "startOrder"]);
        const total = totalsOf(quote).find((row) => row.symbol === "OCEAN")!;
        assert.equal(total.amount, "1.001");
        const before = await world.oceanOf(signer.address);
        const order = await orderAsset(node, {
          did,
          serviceId,
          signer,
          rpcUrl: chain.rpcUrl,
          quote,
        });
        assert.equal(
          before - await world.oceanOf(signer.address),
          parseUnits(String(total.amount), 18),
        );
        assert.deepEqual((await world.ordersPaidBy(signer.address)).map((o) => o.tx), [
          order.txHash,
        ]);
        assert.equal(await world.sent(signer.address), sent + 3, "exactly the quoted transactions");
      },
    );

    await t.step("a quote whose provider fee expired is refused", async () => {
      const signer = await buyer();
      const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
      const expired = { ...quote, validUntil: new Date(Date.now() - 1000) };
      await assert.rejects(
        orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl, quote: expired }),
        (error: Error) => error instanceof TidepoolError && /the quote expired/.test(error.message),
      );
      assert.equal(await world.sent(signer.address), 0);
    });

    await t.step("a quote the chain no longer matches is refused, naming both", async () => {
      const signer = await buyer();
      // Another access service (ocean-node's initialize refuses a compute one).
      const other = [...chain.pricing.keys()].find((d) =>
        d !== did && d !== example.algorithm.documentId && d !== example.dataset.documentId
      )!;
      const otherService = ocean.ddos.find((d) => d.id === other)!.services[0].id;
      const quote = await quoteOrder(node, {
        did: other,
        serviceId: otherService,
        signer,
        rpcUrl: chain.rpcUrl,
      });
      // The publisher doubles the price after the user looked.
      const { publicClient, walletClient } = chainClients(chain);
      const datatoken = quote.orders[0].datatoken;
      const [exchange] = await publicClient.readContract({
        address: datatoken,
        abi: ARTIFACTS.ERC20Template.abi,
        functionName: "getFixedRates",
      }) as { contractAddress: `0x${string}`; id: `0x${string}` }[];
      const hash = await walletClient.writeContract({
        address: exchange.contractAddress,
        abi: ARTIFACTS.FixedRateExchange.abi,
        functionName: "setRate",
        args: [exchange.id, parseEther("2")],
        account: chain.contracts.owner,
        chain: walletClient.chain,
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      const before = await world.oceanOf(signer.address);
      await assert.rejects(
        orderAsset(node, {
          did: other,
          serviceId: otherService,
          signer,
          rpcUrl: chain.rpcUrl,
          quote,
        }),
        (error: Error) =>
          error instanceof TidepoolError &&
          /no longer matches the chain/.test(error.message) &&
          /quoted: exchange; price 1\.001 OCEAN.*now: exchange; price 2\.002 OCEAN/.test(
            String(error.details),
          ),
      );
      assert.equal(await world.oceanOf(signer.address), before);
      assert.equal(await world.sent(signer.address), 0);
    });

    await t.step("a paid compute start executes the quote it is given", async () => {
      const signer = await buyer();
      const parameters = {
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
        rpcUrl: chain.rpcUrl,
        maxJobDuration: 60,
      };
      const quote = await node.quoteCompute(parameters);
      assert.equal(await world.sent(signer.address), 0);
      assert.deepEqual(
        quote.orders.map((o) => o.did),
        [example.algorithm.documentId, example.dataset.documentId],
      );
      const ocean = totalsOf(quote).find((row) => row.symbol === "OCEAN")!;
      assert.equal(ocean.amount, "2.002");
      const before = await world.oceanOf(signer.address);
      const { orders } = await node.startCompute({ ...parameters, quote });
      assert.equal(before - await world.oceanOf(signer.address), parseEther("2.002"));
      assert.deepEqual(
        new Set((await world.ordersPaidBy(signer.address)).map((o) => o.tx)),
        new Set([orders.algorithm.txHash, orders.datasets[0].txHash]),
      );
    });
  } finally {
    await world.close();
  }
});
