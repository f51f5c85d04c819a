/**
 * A node (or a proxy before it) that raises the provider fee, swaps the
 * datatoken or serves an expired fee decides nothing: a fee above
 * `maxPrice` is refused before the first transaction, naming each part; a
 * fee within it is paid and reported per part; a datatoken the DDO and the
 * node's answer disagree on is refused naming both; an expired or
 * malformed fee is refused. Checked on anvil: nonces, Ocean balances,
 * `OrderStarted` events, and what the fee address received.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import { hostileNode, moneyWorld } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a hostile node cannot raise, redirect or stale what is paid", async (t) => {
  const world = await moneyWorld({ extra: 2 });
  const hostile = privateKeyToAccount(generatePrivateKey());
  const { ocean, chain, example } = world;
  const { documentId: did, serviceId } = world.download;
  const other = world.chain.pricing.keys().find((d) =>
    d !== did && d !== example.algorithm.documentId
  )!;
  const otherDatatoken = ocean.ddos.find((d) => d.id === other)!.services[0].datatokenAddress!;
  /** A fee the hostile node signs itself: startOrder accepts it (the signer is the fee address). */
  const fee = (amount: string, validUntil = Math.floor(Date.now() / 1000) + 600) =>
    signProviderFee(hostile, {
      providerFeeToken: chain.contracts.oceanToken,
      providerFeeAmount: parseEther(amount),
      validUntil,
      data: { id: serviceId },
    });
  const buyer = async () => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "20");
    return signer;
  };
  /** Asserts the wallet sent nothing and kept its Ocean. */
  const untouched = async (address: string, run: () => Promise<unknown>, pattern: RegExp) => {
    const [sent, held] = [await world.sent(address), await world.oceanOf(address)];
    const error = await run().then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `refused as a TidepoolError: ${error}`);
    assert.match(error.message, pattern);
    assert.equal(await world.sent(address), sent, "no transaction was sent");
    assert.equal(await world.oceanOf(address), held, "no Ocean left the wallet");
    assert.equal((await world.ordersPaidBy(address)).length, 0);
    return error as TidepoolError;
  };
  const proxies: { close(): Promise<void> }[] = [];
  const through = (rewrite: Parameters<typeof hostileNode>[1]) => {
    const proxy = hostileNode(ocean.url, rewrite);
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const onInitialize = (change: (body: Json) => Promise<Json>) =>
    through(async (url, body) =>
      url.pathname === "/api/services/initialize" ? await change(body as Json) : undefined
    );
  try {
    await t.step("a 9 Ocean provider fee is refused under maxPrice 2, naming it", async () => {
      const signer = await buyer();
      const node = onInitialize(async (body) => ({ ...body, providerFee: await fee("9") }));
      const error = await untouched(
        signer.address,
        () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl, maxPrice: "2" }),
        /would take 10\.001 OCEAN from the wallet, above maxPrice 2/,
      );
      assert.match(String(error.details), /provider fee 9 OCEAN to 0x[0-9a-fA-F]{40}/);
      assert.match(String(error.details), /price 1\.001 OCEAN/);
    });

    await t.step("the same fee in a paid compute start is refused before any order", async () => {
      const signer = await buyer();
      const node = through(async (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { algorithm: Json; datasets: Json[] };
        for (const term of [terms.algorithm, ...terms.datasets]) term.providerFee = await fee("9");
        return terms;
      });
      await untouched(
        signer.address,
        () =>
          node.startCompute({
            signer,
            environment: example.environment,
            algorithm: example.algorithm,
            datasets: [example.dataset],
            rpcUrl: chain.rpcUrl,
            maxPrice: "2",
          }),
        /above maxPrice 2/,
      );
    });

    await t.step("a fee within maxPrice is paid, and reported per part from receipts", async () => {
      const signer = await buyer();
      const node = onInitialize(async (body) => ({ ...body, providerFee: await fee("9") }));
      const before = await world.oceanOf(signer.address);
      const feeBefore = await world.oceanOf(hostile.address);
      const order = await orderAsset(node, {
        did,
        serviceId,
        signer,
        rpcUrl: chain.rpcUrl,
        maxPrice: "10.001",
      });
      const spent = before - await world.oceanOf(signer.address);
      assert.equal(spent, parseEther("10.001"));
      assert.equal(await world.oceanOf(hostile.address) - feeBefore, parseEther("9"));
      const ocean = order.paid.filter((p) => p.token === chain.contracts.oceanToken);
      assert.equal(ocean.reduce((sum, p) => sum + p.units, 0n), spent, "parts add up to the spend");
      assert.deepEqual(
        ocean.map((p) => [p.part, p.amount]).sort(),
        [["price", "1.001"], ["provider fee", "9"]],
      );
      assert.equal(ocean.find((p) => p.part === "provider fee")?.payee, hostile.address);
      assert.equal(order.pricePaid, "1.001");
      assert.deepEqual((await world.ordersPaidBy(signer.address)).map((o) => o.tx), [order.txHash]);
    });

    await t.step("an expired fee is refused before anything is sent", async () => {
      const signer = await buyer();
      const node = onInitialize(async (body) => ({
        ...body,
        providerFee: await fee("0", Math.floor(Date.now() / 1000) - 60),
      }));
      await untouched(
        signer.address,
        () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
        /provider fee has expired/,
      );
    });

    await t.step("a malformed fee amount is refused, not thrown as a TypeError", async () => {
      const signer = await buyer();
      const node = onInitialize(async (body) => ({
        ...body,
        providerFee: { ...await fee("1"), providerFeeAmount: "9e18" },
      }));
      await untouched(
        signer.address,
        () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
        /provider fee is malformed \(providerFeeAmount\)/,
      );
    });

    await t.step(
      "a DDO naming another datatoken than initialize is refused naming both",
      async () => {
        const signer = await buyer();
        const node = through((url, body) => {
          if (!url.pathname.startsWith("/api/aquarius/assets/ddo/")) return undefined;
          const ddo = structuredClone(body) as { services: Json[] };
          ddo.services.find((s) => s.id === serviceId)!.datatokenAddress = otherDatatoken;
          return ddo;
        });
        const error = await untouched(
          signer.address,
          () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
          /the DDO names datatoken 0x[0-9a-fA-F]{40} .* initialize answer names 0x[0-9a-fA-F]{40}/,
        );
        assert.ok(error.message.includes(otherDatatoken));
      },
    );

    await t.step("an initialize answer naming another datatoken is refused too", async () => {
      const signer = await buyer();
      const node = onInitialize((body) => Promise.resolve({ ...body, datatoken: otherDatatoken }));
      await untouched(
        signer.address,
        () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
        /the DDO names datatoken .* initialize answer names/,
      );
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
