/**
 * A plan is checked whole before its first transaction. Paid compute with
 * two datasets, the second dataset's provider fee signed by a key that is
 * not the fee address (only the fee's shape was checked): the first orders
 * were paid, then the second `startOrder` reverted, 8 transactions and
 * 3.003 Ocean for no job. The class: a part of a plan `startOrder` refuses
 * only after the parts before it were paid. Members: a fee signed by
 * another key (in a job's second dataset, in a single order), fees signed
 * by two providers in one job, a fee valid for fewer seconds than the plan
 * takes to reach its `startOrder`, a fee in a token that does not say its
 * decimals. Checked on anvil with viem: nonces, Ocean balances,
 * `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset } from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import {
  fundedBuyer,
  hostileNode,
  moneyWorld,
  privateStateDir,
  refusedUntouched,
  secondComputeDataset,
} from "./_money_world.ts";

type Json = Record<string, unknown>;
type Fee = Awaited<ReturnType<typeof signProviderFee>>;

Deno.test("a plan with a fee startOrder would refuse sends nothing", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 1 });
  const { ocean, chain, example } = world;
  // Ordered through initialize: an access service (a compute one goes through initializeCompute).
  const { documentId: did, serviceId } = world.download;
  const provider = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const sign = (
    by: typeof provider,
    options: { amount?: string; token?: `0x${string}`; validUntil?: number } = {},
  ) =>
    signProviderFee(by, {
      providerFeeToken: options.token ?? chain.contracts.oceanToken,
      providerFeeAmount: parseEther(options.amount ?? "0"),
      validUntil: options.validUntil ?? Math.floor(Date.now() / 1000) + 600,
      data: { id: serviceId },
    });
  /** A fee paid to `provider` but signed by the stranger: startOrder recovers another address. */
  const forged = async (): Promise<Fee> => ({
    ...await sign(stranger),
    providerFeeAddress: provider.address,
  });
  const buyer = () => fundedBuyer(world);
  const untouched = (address: string, run: () => Promise<unknown>, pattern: RegExp) =>
    refusedUntouched(world, address, run, pattern);
  const proxies: { close(): Promise<void> }[] = [];
  /** A node whose compute terms get `fees[i]` for the i-th asset (algorithm first). */
  const computeNode = (fees: (() => Promise<Fee>)[]) => {
    const proxy = hostileNode(ocean.url, async (url, body) => {
      if (url.pathname !== "/api/services/initializeCompute") return undefined;
      const terms = body as { algorithm: Json; datasets: Json[] };
      const all = [terms.algorithm, ...terms.datasets];
      for (const [i, term] of all.entries()) term.providerFee = await fees[i]();
      return terms;
    });
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const orderNode = (fee: () => Promise<Fee>) => {
    const proxy = hostileNode(
      ocean.url,
      async (url, body) =>
        url.pathname === "/api/services/initialize"
          ? { ...(body as Json), providerFee: await fee() }
          : undefined,
    );
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const second = secondComputeDataset(world);
  const job = (node: OceanNode, signer: Awaited<ReturnType<typeof buyer>>) => () =>
    node.startCompute({
      signer,
      environment: example.environment,
      algorithm: example.algorithm,
      datasets: [example.dataset, second],
      rpcUrl: chain.rpcUrl,
      maxJobDuration: 60,
    });
  try {
    await t.step("a job's second dataset with a fee signed by another key", async () => {
      const signer = await buyer();
      const node = computeNode([() => sign(provider), () => sign(provider), forged]);
      const error = await untouched(
        signer.address,
        job(node, signer),
        /provider fee is not signed by the address it pays/,
      );
      assert.match(String(error.details), new RegExp(`paid to ${provider.address}, signed by 0x`));
    });

    await t.step("a single order with a fee signed by another key", async () => {
      const signer = await buyer();
      await untouched(
        signer.address,
        () => orderAsset(orderNode(forged), { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
        /provider fee is not signed by the address it pays/,
      );
    });

    await t.step("fees of one job signed by two providers", async () => {
      const signer = await buyer();
      const node = computeNode([() => sign(provider), () => sign(provider), () => sign(stranger)]);
      await untouched(
        signer.address,
        job(node, signer),
        /names another provider than the plan's other fees/,
      );
    });

    await t.step("a fee valid for fewer seconds than the plan takes to reach it", async () => {
      const signer = await buyer();
      // The third order's startOrder is the plan's ninth transaction: 20 s is too short.
      const soon = () => sign(provider, { validUntil: Math.floor(Date.now() / 1000) + 20 });
      const node = computeNode([() => sign(provider), () => sign(provider), soon]);
      await untouched(
        signer.address,
        job(node, signer),
        /expires before its startOrder can be mined \(9 transactions/,
      );
    });

    await t.step("a fee in a token that does not say its decimals", async () => {
      const signer = await buyer();
      // A token whose every call answers 0, but whose decimals() reverts.
      const token = privateKeyToAccount(generatePrivateKey()).address;
      await world.reader.request({
        method: "anvil_setCode" as never,
        params: [token, "0x60003560e01c63313ce5671460145760206000f35b600080fd"] as never,
      });
      const node = orderNode(() => sign(provider, { token, amount: "1" }));
      await untouched(
        signer.address,
        () =>
          orderAsset(node, {
            did,
            serviceId,
            signer,
            rpcUrl: chain.rpcUrl,
            maxPrice: { [token]: "1", [chain.contracts.oceanToken]: "2" },
          }),
        /does not say its decimals/,
      );
    });

    await t.step("a job whose fees are all the node's is paid and started", async () => {
      const signer = await buyer();
      const node = computeNode([() => sign(provider), () => sign(provider), () => sign(provider)]);
      const before = await world.oceanOf(signer.address);
      const started = await job(node, signer)();
      assert.equal(started.jobs.length, 1);
      assert.equal(before - await world.oceanOf(signer.address), parseEther("3.003"));
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
