/**
 * Safe by default: without `maxPrice`, nothing is paid beyond the
 * datatoken's price as the chain's exchange lists it. A node (or a proxy
 * before it) that signed its own 15-Ocean provider fee took a buyer of
 * `downloadAsset` from 20 to 3.999 Ocean; a cap held per order, so a
 * compute job of N orders could take N times it; one token capped in two
 * spellings kept the later cap. The class: a payment no cap the user gave
 * bounds. Members: a provider fee with no cap (a download, a compute job),
 * a publishing market fee with no cap, a job's orders together above its
 * cap, a cap given twice for one token. Checked on anvil with viem: nonces,
 * Ocean balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { downloadAsset, OceanNode, orderAsset, quoteOrder } from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import {
  fundedBuyer,
  hostileNode,
  moneyWorld,
  privateStateDir,
  refusedUntouched,
  secondComputeDataset,
  setMarketFee,
} from "./_money_world.ts";

type Json = Record<string, unknown>;
type Hex = `0x${string}`;

Deno.test("without maxPrice only the listed price is paid, and one cap covers a whole job", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 2 });
  const { ocean, chain, example } = world;
  // Ordered through initialize: an access service (a compute one goes through initializeCompute).
  const { documentId: did, serviceId } = world.download;
  const hostile = privateKeyToAccount(generatePrivateKey());
  const fee = (amount: string) =>
    signProviderFee(hostile, {
      providerFeeToken: chain.contracts.oceanToken,
      providerFeeAmount: parseEther(amount),
      validUntil: Math.floor(Date.now() / 1000) + 600,
      data: { id: serviceId },
    });
  const buyer = () => fundedBuyer(world);
  const untouched = (address: string, run: () => Promise<unknown>, pattern: RegExp) =>
    refusedUntouched(world, address, run, pattern);
  const proxies: { close(): Promise<void> }[] = [];
  const through = (rewrite: Parameters<typeof hostileNode>[1]) => {
    const proxy = hostileNode(ocean.url, rewrite);
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const second = secondComputeDataset(world);
  try {
    await t.step("downloadAsset with no cap refuses a node's own 15-Ocean fee", async () => {
      const signer = await buyer();
      const feeBefore = await world.oceanOf(hostile.address);
      const proxy = through(async (url, body) =>
        url.pathname === "/api/services/initialize"
          ? { ...(body as Json), providerFee: await fee("15") }
          : undefined
      );
      const dir = await Deno.makeTempDir();
      try {
        const error = await untouched(
          signer.address,
          () => downloadAsset(proxy, { did, serviceId, signer, rpcUrl: chain.rpcUrl, dir }),
          /provider fee 15 OCEAN beyond the datatoken's listed price, and no maxPrice was given/,
        );
        assert.match(String(error.hint), /maxPrice/);
        assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing downloaded");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
      assert.equal(await world.oceanOf(hostile.address), feeBefore, "the fee address got nothing");
    });

    await t.step("the quote still shows the fee, and a cap that allows it pays it", async () => {
      const signer = await buyer();
      const proxy = through(async (url, body) =>
        url.pathname === "/api/services/initialize"
          ? { ...(body as Json), providerFee: await fee("1") }
          : undefined
      );
      const quote = await quoteOrder(proxy, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
      assert.ok(
        quote.orders[0].transactions.some((tx) =>
          tx.payments.some((p) => p.part === "provider fee" && p.amount === parseEther("1"))
        ),
      );
      await untouched(
        signer.address,
        () => orderAsset(proxy, { did, serviceId, signer, rpcUrl: chain.rpcUrl, quote }),
        /no maxPrice was given/,
      );
      const before = await world.oceanOf(signer.address);
      await orderAsset(proxy, { did, serviceId, signer, rpcUrl: chain.rpcUrl, maxPrice: "2.001" });
      assert.equal(before - await world.oceanOf(signer.address), parseEther("2.001"));
    });

    await t.step("a compute job with no cap refuses a provider fee before any order", async () => {
      const signer = await buyer();
      const proxy = through(async (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { algorithm: Json; datasets: Json[] };
        for (const term of [terms.algorithm, ...terms.datasets]) term.providerFee = await fee("1");
        return terms;
      });
      await untouched(
        signer.address,
        () =>
          proxy.startCompute({
            signer,
            environment: example.environment,
            algorithm: example.algorithm,
            datasets: [example.dataset],
            rpcUrl: chain.rpcUrl,
            maxJobDuration: 60,
          }),
        /no maxPrice was given/,
      );
    });

    await t.step("a compute job's orders together are held to one cap", async () => {
      const signer = await buyer();
      const request = {
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset, second],
        rpcUrl: chain.rpcUrl,
        maxJobDuration: 60,
      };
      // Each order takes 1.001 Ocean, within 2; the three together take 3.003.
      const error = await untouched(
        signer.address,
        () => node.startCompute({ ...request, maxPrice: "2" }),
        /would take 3\.003 OCEAN from the wallet \(3 orders together\), above maxPrice 2/,
      );
      assert.match(String(error.details), new RegExp(second.documentId));
      const before = await world.oceanOf(signer.address);
      const started = await node.startCompute({ ...request, maxPrice: "3.003" });
      assert.equal(started.jobs.length, 1);
      assert.equal(before - await world.oceanOf(signer.address), parseEther("3.003"));
      assert.equal((await world.ordersPaidBy(signer.address)).length, 3);
    });

    await t.step(
      "one token capped in two spellings is refused, not the later cap kept",
      async () => {
        const signer = await buyer();
        const proxy = through(async (url, body) =>
          url.pathname === "/api/services/initialize"
            ? { ...(body as Json), providerFee: await fee("5") }
            : undefined
        );
        const token = chain.contracts.oceanToken;
        for (
          const maxPrice of [
            { [token]: "2", [token.toLowerCase()]: "10" },
            { [token.toLowerCase()]: "10", [token]: "2" },
          ]
        ) {
          await untouched(
            signer.address,
            () => orderAsset(proxy, { did, serviceId, signer, rpcUrl: chain.rpcUrl, maxPrice }),
            /is capped twice/,
          );
        }
      },
    );

    await t.step(
      "a publishing market fee with no cap is refused; listed price alone is paid",
      async () => {
        const datatoken = ocean.ddos.find((d) => d.id === did)!.services
          .find((s) => s.id === serviceId)!.datatokenAddress as Hex;
        const market = privateKeyToAccount(generatePrivateKey()).address;
        const setFee = (amount: string) => setMarketFee(world, datatoken, market, amount);
        const listed = await buyer();
        const before = await world.oceanOf(listed.address);
        await orderAsset(node, { did, serviceId, signer: listed, rpcUrl: chain.rpcUrl });
        assert.equal(before - await world.oceanOf(listed.address), parseEther("1.001"));
        // The last step: the market's address, once set, is the only one that may set the fee again.
        await setFee("0.1");
        const signer = await buyer();
        await untouched(
          signer.address,
          () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
          /publish market fee 0\.1 OCEAN beyond the datatoken's listed price/,
        );
        assert.equal(await world.oceanOf(market), 0n);
      },
    );
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
