/**
 * A paid compute job on the sandbox chain through the public client: the
 * dataset and the algorithm ordered on anvil, the job started with their
 * transactions, followed and its results downloaded; the node's refusals
 * (another's order, an expired provider fee) and the secrets kept out of
 * every output.
 */

import assert from "node:assert/strict";
import { hexToString, parseEventLogs } from "viem";
import { generatePrivateKey } from "viem/accounts";
import {
  OceanNode,
  signerFromPrivateKey,
  type StartComputeReturnType,
} from "../../lib/ocean/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { startChainSandbox } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { ARTIFACTS } from "../../lib/sandbox/chain/_artifacts.ts";
import { expectedStats } from "../ocean_compute/_setup.ts";

Deno.test("a paid job runs on orders made on chain, and only on the payer's own orders", async (t) => {
  const ocean = startOceanSandbox({ count: 40, compute: { stepMs: 5 } });
  const seeded = ocean.computeExample();
  const chain = await startChainSandbox(ocean, {
    dids: [seeded.dataset.documentId, seeded.algorithm.documentId],
    pricing: () => ({ type: "fixed", price: "1" }),
  });
  // Publishing renamed both assets: their DIDs name the chain and their NFTs.
  const { dataset, algorithm, environment } = ocean.computeExample();
  const dir = await Deno.makeTempDir();
  // Every signature the client sends, to prove none of them comes back out.
  const signatures: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const sent = url.searchParams.get("signature") ??
      (typeof init?.body === "string" ? JSON.parse(init.body).signature : undefined);
    if (typeof sent === "string") signatures.push(sent);
    return await fetch(input, init);
  };
  const outputs: string[] = [];
  const keep = (value: unknown) => outputs.push(Deno.inspect(value, { depth: 10 }));
  const refused = (pattern: RegExp) => (error: Error) => {
    assert.match(error.message, pattern);
    keep(error);
    outputs.push(String(error.stack));
    return true;
  };
  try {
    const node = new OceanNode(ocean.url, { progress: false, retry: false, fetch: recordingFetch });
    const { publicClient } = chainClients(chain);
    const buyerKey = generatePrivateKey();
    const buyer = signerFromPrivateKey(buyerKey);
    await chain.fund(buyer.address, "10");
    const sent = () => publicClient.getTransactionCount({ address: buyer.address });
    const request = {
      environment,
      algorithm,
      datasets: [dataset],
      rpcUrl: chain.rpcUrl,
      maxJobDuration: 60,
    };

    let orders: StartComputeReturnType["orders"] | undefined;
    await t.step("the job pays for both orders and computes the dataset's statistics", async () => {
      const terms = await node.initializeCompute({
        consumer: buyer,
        environment,
        algorithm,
        datasets: [dataset],
        payment: { chainId: chain.chainId, token: chain.contracts.oceanToken },
      });
      const [env] = await node.computeEnvironments(11155111);
      assert.equal(terms.datasets[0].consumerAddress, env.consumerAddress);
      assert.equal(terms.datasets[0].validOrder, false);
      assert.ok(terms.algorithm?.providerFee?.r, "a signed provider fee for the algorithm");
      keep(terms);

      // One cap for the whole job: two orders of 1.001 Ocean.
      const started = await node.startCompute({ ...request, signer: buyer, maxPrice: "2.5" });
      keep(started);
      orders = started.orders;
      assert.deepEqual(
        [started.orders.algorithm.source, started.orders.datasets[0].source],
        ["exchange", "exchange"],
      );
      assert.equal(started.orders.datasets[0].pricePaid, "1.001");
      const [job] = started.jobs;
      assert.equal(job.isFree, false);
      const done = await node.waitForJob(buyer.address, job.jobId, {
        pollMs: 10,
        timeoutMs: 5_000,
      });
      const saved = await node.downloadResults(done, { signer: buyer, dir, types: ["output"] });
      keep(saved.objects());
      const output = JSON.parse(await Deno.readTextFile(saved.get("path", 0) as string));
      const parts = ocean.files(dataset.documentId, dataset.serviceId)
        .map((file) => new TextDecoder().decode(file.bytes));
      const expected = expectedStats(parts, "value");
      assert.equal(output[dataset.documentId].columns.value.count, expected.count);
      assert.ok(Math.abs(output[dataset.documentId].columns.value.mean - expected.mean) < 1e-9);
    });

    await t.step("a second job reuses both orders and sends no transaction", async () => {
      const before = await sent();
      const again = await node.startCompute({ ...request, signer: buyer });
      assert.equal(again.orders.algorithm.source, "reused");
      assert.equal(again.orders.datasets[0].txHash, orders?.datasets[0].txHash);
      assert.equal(again.orders.datasets[0].blockNumber, orders?.datasets[0].blockNumber);
      assert.equal(await sent(), before);
      keep(again);
    });

    await t.step("an asset listed twice is refused before any request or payment", async () => {
      const before = await sent();
      let requests = 0;
      const counting = new OceanNode(ocean.url, {
        progress: false,
        fetch: (input, init) => {
          requests++;
          return fetch(input, init);
        },
      });
      for (const listed of [{ datasets: [dataset, dataset] }, { datasets: [algorithm] }]) {
        await assert.rejects(
          counting.startCompute({ ...request, ...listed, signer: buyer }),
          refused(/Cannot start compute job: .* is listed twice/),
        );
      }
      assert.equal(requests, 0);
      assert.equal(await sent(), before);
    });

    await t.step("another wallet presenting the buyer's orders is refused", async () => {
      const thiefKey = generatePrivateKey();
      const thief = signerFromPrivateKey(thiefKey);
      await chain.fund(thief.address, "10");
      await assert.rejects(
        node.startCompute({
          ...request,
          signer: thief,
          algorithm: { ...algorithm, transferTxId: orders!.algorithm.txHash },
          datasets: [{ ...dataset, transferTxId: orders!.datasets[0].txHash }],
        }),
        refused(/paid by another address/),
      );
      assert.equal((await node.jobs(thief.address)).numRows(), 0);
      assert.equal(await publicClient.getTransactionCount({ address: thief.address }), 0);
      assert.ok(!outputs.join("\n").includes(thiefKey.slice(2)));
    });

    await t.step("a transferTxId the chain does not know is refused before signing", async () => {
      const unknown = `0x${"ab".repeat(32)}`;
      await assert.rejects(
        node.startCompute({
          ...request,
          signer: buyer,
          datasets: [{ ...dataset, transferTxId: unknown }],
        }),
        refused(/not a successful transaction on chain 31337/),
      );
    });

    await t.step(
      "a balance for one order but not both is refused before either is sent",
      async () => {
        const short = signerFromPrivateKey(generatePrivateKey());
        await chain.fund(short.address, "1.5");
        await assert.rejects(
          node.startCompute({ ...request, signer: short, maxPrice: "2.5" }),
          refused(/insufficient balance: 1\.5 OCEAN held, 2\.002 OCEAN needed/),
        );
        assert.equal(await publicClient.getTransactionCount({ address: short.address }), 0);
      },
    );

    await t.step("an expired provider fee is refused before anything is sent", async () => {
      const late = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(late.address, "10");
      ocean.compute!.faults.expiredProviderFees = true;
      try {
        await assert.rejects(
          node.startCompute({ ...request, signer: late }),
          refused(/provider fee has expired/),
        );
      } finally {
        ocean.compute!.faults.expiredProviderFees = false;
      }
      assert.equal(await publicClient.getTransactionCount({ address: late.address }), 0);
      assert.equal((await node.jobs(late.address)).numRows(), 0);
    });

    await t.step("a start the node refuses after paying names the paid orders", async () => {
      const unlucky = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(unlucky.address, "10");
      ocean.compute!.faults.startFailure = { status: 500, body: "scheduler unavailable" };
      let message = "";
      try {
        await assert.rejects(
          node.startCompute({ ...request, signer: unlucky }),
          refused(/after paying 2 orders: scheduler unavailable/),
        );
        message = outputs.at(-1) ?? "";
      } finally {
        ocean.compute!.faults.startFailure = undefined;
      }
      // The hashes the error names are the orders the chain holds for this wallet.
      const paid = [...message.matchAll(/0x[0-9a-f]{64}/g)].map((match) => match[0]);
      assert.equal(paid.length, 2, message);
      for (const hash of paid) {
        const receipt = await publicClient.getTransactionReceipt({ hash: hash as `0x${string}` });
        assert.equal(receipt.from.toLowerCase(), unlucky.address.toLowerCase());
      }
      assert.match(message, /check jobs\(consumer\) before retrying/);
      // Started again, the job runs on those orders and pays nothing more.
      const before = await publicClient.getTransactionCount({ address: unlucky.address });
      const again = await node.startCompute({ ...request, signer: unlucky });
      assert.deepEqual(
        [again.orders.algorithm.txHash, again.orders.datasets[0].txHash].sort(),
        [...paid].sort(),
      );
      assert.equal(await publicClient.getTransactionCount({ address: unlucky.address }), before);
    });

    await t.step("terms answered in another order are matched by did and serviceId", async () => {
      const wallet = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(wallet.address, "10");
      ocean.compute!.faults.reversedComputeTerms = true;
      let started: StartComputeReturnType;
      try {
        started = await node.startCompute({ ...request, signer: wallet });
      } finally {
        ocean.compute!.faults.reversedComputeTerms = false;
      }
      keep(started);
      // Each startOrder carried the provider fee the node signed for that asset's datatoken.
      const ordered = [
        [algorithm, started.orders.algorithm],
        [dataset, started.orders.datasets[0]],
      ] as const;
      for (const [ref, order] of ordered) {
        const datatoken = ocean.ddos.find((d) => d.id === ref.documentId)!.services
          .find((s) => s.id === ref.serviceId)!.datatokenAddress!;
        const receipt = await publicClient.getTransactionReceipt({ hash: order.txHash });
        const [fee] = parseEventLogs({
          abi: ARTIFACTS.ERC20Template.abi,
          eventName: "ProviderFee",
          logs: receipt.logs,
        }) as unknown as { args: { providerData: `0x${string}` } }[];
        assert.ok(fee, `a ProviderFee event in the order of ${ref.documentId}`);
        const signedFor = JSON.parse(hexToString(fee.args.providerData));
        assert.equal(signedFor.dt.toLowerCase(), datatoken.toLowerCase(), ref.documentId);
      }
    });

    await t.step("no key or signature appears in any output", () => {
      const text = outputs.join("\n").toLowerCase();
      assert.ok(signatures.length >= 3, `${signatures.length} signatures recorded`);
      assert.ok(!text.includes(buyerKey.slice(2)));
      for (const signature of signatures) assert.ok(!text.includes(signature.slice(2, 66)));
    });
  } finally {
    await chain.close();
    await ocean.close();
    await Deno.remove(dir, { recursive: true });
  }
});
