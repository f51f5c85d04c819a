/**
 * An error after part of a plan was sent says what happened, what the
 * chain said (trimmed, on one line), what to do, and the orders already
 * paid and placed with their transaction hashes. It used to carry viem's
 * whole multi-line text ("Contract Call: address, function, args, sender",
 * "Docs:", "Version: viem@...") as its message, or only viem's first line,
 * which ends in "with the following reason:" and leaves the reason out.
 * The class: a chain failure passed on without tidepool's own telling.
 * Members: the second order of a paid compute start reverts (its price
 * raised after the first order), the chain refuses its transaction
 * (another of this key is waiting), the chain stops answering. Checked on
 * anvil: the `OrderStarted` events the error must name, by hash.
 */

import assert from "node:assert/strict";
import { parseAbi, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { moneyWorld, privateStateDir, type RpcCall, rpcProxy } from "./_money_world.ts";

const VIEM_WORDS = /Contract Call:|Request Arguments:|Docs: |Version: viem|Raw Call Arguments/;

Deno.test("an error after part of a plan names the orders placed and what the chain said, briefly", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, example, reader } = world;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const datasetToken = ocean.ddos.find((d) => d.id === example.dataset.documentId)!.services
    .find((s) => s.id === example.dataset.serviceId)!.datatokenAddress as `0x${string}`;
  /**
   * Starts a paid job through a proxy that lets `after(k)` act once the
   * k-th transaction was mined (the algorithm's order is transactions 1-3).
   */
  const start = async (
    before: (call: RpcCall, sends: number) => Promise<Record<string, unknown> | undefined>,
    after: (sends: number) => Promise<void> = () => Promise.resolve(),
  ) => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    let sends = 0;
    const proxy = rpcProxy(chain.rpcUrl, {
      before: (call) => before(call, sends),
      after: async (call) => {
        if (call.method === "eth_sendRawTransaction") await after(++sends);
      },
    });
    try {
      const error = await node.startCompute({
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
        rpcUrl: proxy.url,
        maxJobDuration: 60,
      }).then(() => undefined, (e) => e);
      assert.ok(error instanceof TidepoolError, `a TidepoolError: ${error}`);
      const orders = await world.ordersPaidBy(signer.address);
      assert.equal(orders.length, 1, "the algorithm's order was placed, the dataset's not");
      return { error: error as TidepoolError, orders };
    } finally {
      await proxy.close();
    }
  };
  /** What every such error must be: brief, the chain's words trimmed, each placed order by hash. */
  const told = (error: TidepoolError, orders: { tx: string }[], what: RegExp) => {
    assert.doesNotMatch(error.message, VIEM_WORDS, "no viem dump in the message");
    assert.ok(!error.shortMessage.includes("\n"), `one line: ${error.shortMessage}`);
    assert.match(error.shortMessage, what);
    assert.ok((error.details ?? "").length <= 450 && !(error.details ?? "").includes("\n"));
    assert.ok(error.hint, "says what to do");
    for (const order of orders) {
      assert.ok(error.message.includes(order.tx), `names the order placed, ${order.tx}`);
    }
    assert.match(error.message, /paid and ordered: /);
  };
  try {
    await t.step("the second order reverts: its price was raised after the first", async () => {
      const { walletClient } = chainClients(chain);
      const [exchange] = await reader.readContract({
        address: datasetToken,
        abi: parseAbi(["function getFixedRates() view returns ((address, bytes32)[])"]),
        functionName: "getFixedRates",
      });
      const { error, orders } = await start(() => Promise.resolve(undefined), async (sends) => {
        if (sends !== 3) return;
        // The publisher doubles the dataset's price once the algorithm is ordered.
        const hash = await walletClient.writeContract({
          address: exchange[0],
          abi: parseAbi(["function setRate(bytes32 exchangeId, uint256 newRate)"]),
          functionName: "setRate",
          args: [exchange[1], parseEther("2")],
          account: chain.contracts.owner,
          chain: walletClient.chain,
        });
        await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      });
      told(error, orders, /^Cannot .*buy.* reverted|^Cannot .*buy.*: /);
      assert.equal(error.detailsLabel, "Chain said");
      assert.match(error.details ?? "", /revert/i);
    });

    await t.step("the chain refuses the second order's transaction", async () => {
      const { error, orders } = await start((call, sends) =>
        Promise.resolve(
          call.method === "eth_sendRawTransaction" && sends === 3
            ? { error: { code: -32000, message: "replacement transaction underpriced" } }
            : undefined,
        )
      );
      told(error, orders, /approve/);
      assert.match(error.details ?? "", /replacement transaction underpriced/);
      assert.match(error.hint ?? "", /same nonce is waiting/);
    });

    await t.step("the chain stops answering after the first order", async () => {
      const { error, orders } = await start((call, sends) =>
        sends >= 3 && call.method === "eth_sendRawTransaction"
          ? Promise.reject(new Error("the chain went away"))
          : Promise.resolve(undefined)
      );
      told(error, orders, /approve/);
    });
  } finally {
    await world.close();
  }
});
