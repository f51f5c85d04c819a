/**
 * Stop means stop: a signal fired after each transaction of a two-order
 * paid compute start (the algorithm's order and the dataset's, three
 * transactions each) sends nothing further, except the `startOrder` of an
 * order whose datatoken was just bought (and the approval that sets an
 * allowance back after a stop right after its approval), and starts no job. A JSON-RPC proxy
 * before anvil plays the stop button: it fires the signal as it forwards the
 * k-th transaction. Checked on anvil: transactions sent, Ocean spent, and
 * no datatoken bought without its `OrderStarted`.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { moneyWorld, rpcProxy } from "./_money_world.ts";

/**
 * Transactions sent in all when the signal fires after the k-th (approve,
 * buyDT, startOrder twice); a stop right after an approval sends one more,
 * which sets the exchange's allowance back (issue 53).
 */
const SENT_AFTER_STOP = [0, 2, 3, 3, 5, 6, 6];

Deno.test("a stop after any transaction of a two-order compute start sends nothing further", async (t) => {
  const world = await moneyWorld();
  const { ocean, chain, example } = world;
  const datatokens = [example.algorithm, example.dataset].map((ref) =>
    ocean.ddos.find((d) => d.id === ref.documentId)!.services
      .find((s) => s.id === ref.serviceId)!.datatokenAddress!
  );
  try {
    for (const [k, expected] of SENT_AFTER_STOP.entries()) {
      await t.step(`stopped after transaction ${k}`, async () => {
        const signer = signerFromPrivateKey(generatePrivateKey());
        await chain.fund(signer.address, "10");
        const before = await world.oceanOf(signer.address);
        const stop = new AbortController();
        if (k === 0) stop.abort(new Error("stopped before anything"));
        let sends = 0;
        const proxy = rpcProxy(chain.rpcUrl, {
          after: (call) => {
            if (call.method === "eth_sendRawTransaction" && ++sends === k) {
              stop.abort(new Error(`stopped after transaction ${k}`));
            }
          },
        });
        try {
          const node = new OceanNode(ocean.url, { progress: false, retry: false });
          const error = await node.startCompute({
            signer,
            environment: example.environment,
            algorithm: example.algorithm,
            datasets: [example.dataset],
            rpcUrl: proxy.url,
            maxJobDuration: 60,
            signal: stop.signal,
          }).then(() => undefined, (e) => e);
          assert.equal(await world.sent(signer.address), expected, "transactions on chain");
          assert.ok(error instanceof TidepoolError, `stopped with a TidepoolError: ${error}`);
          assert.match(error.message, /stopped by the signal/);
          const orders = await world.ordersPaidBy(signer.address);
          assert.equal(
            before - await world.oceanOf(signer.address),
            parseEther("1.001") * BigInt(orders.length),
          );
          for (const datatoken of datatokens) {
            assert.equal(
              await world.balance(datatoken, signer.address),
              0n,
              "no datatoken left unordered",
            );
          }
          for (const order of orders) {
            assert.ok(error.message.includes(order.tx), "the error names each order");
          }
          const allowed = await world.reader.readContract({
            address: chain.contracts.oceanToken,
            abi: erc20Abi,
            functionName: "allowance",
            args: [signer.address as `0x${string}`, chain.contracts.fixedRateExchange],
          });
          assert.equal(allowed, 0n, "the exchange is allowed nothing after the stop");
          const jobs = await node.jobs(signer.address);
          assert.equal(jobs.numRows(), 0, "no job was started");
        } finally {
          await proxy.close();
        }
      });
    }
  } finally {
    await world.close();
  }
});
