/**
 * A provider fee's `validUntil` is the node's number, and tidepool turns it
 * into a date (the quote's `validUntil`, the expiry check). A number past
 * what a date can hold (about 8.64e12 seconds) made `quote.validUntil` an
 * Invalid Date, and the order went through. The class: a server's number
 * taken as a date without a bound. Each member (past a date's range, the
 * largest safe integer, year 10000, negative, fractional, text) is refused
 * before anything is sent, in an order and in a paid compute start, and a
 * sane one gives a quote whose dates are real. Checked on anvil: nonces,
 * Ocean balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  OceanNode,
  orderAsset,
  quoteOrder,
  signerFromPrivateKey,
  TidepoolError,
} from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a provider fee valid until an absurd time is refused before anything is sent", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, example } = world;
  const { documentId: did, serviceId } = world.download;
  const feeSigner = privateKeyToAccount(generatePrivateKey());
  const proxies: { close(): Promise<void> }[] = [];
  /** A fee the node signs itself (so startOrder would accept it), valid until `validUntil`. */
  const fee = async (validUntil: unknown) => ({
    ...await signProviderFee(feeSigner, {
      providerFeeToken: chain.contracts.oceanToken,
      providerFeeAmount: 0n,
      // What the signature covers; the answer then says `validUntil` as given.
      validUntil: Number.isSafeInteger(validUntil) && (validUntil as number) >= 0
        ? validUntil as number
        : 1,
      data: { id: serviceId },
    }),
    validUntil,
  });
  const through = (rewrite: Parameters<typeof hostileNode>[1]) => {
    const proxy = hostileNode(ocean.url, rewrite);
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const buyer = async () => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    return signer;
  };
  const untouched = async (address: string, run: () => Promise<unknown>) => {
    const held = await world.oceanOf(address);
    const error = await run().then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `refused as a TidepoolError: ${error}`);
    assert.match(error.message, /provider fee is malformed \(validUntil\)/);
    assert.equal(await world.sent(address), 0, "no transaction was sent");
    assert.equal(await world.oceanOf(address), held, "no Ocean left the wallet");
    assert.deepEqual(await world.ordersPaidBy(address), []);
  };
  const absurd: [string, unknown][] = [
    ["past a date's range (8.7e12 s)", 8_700_000_000_000],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER],
    ["the year 10000", 253_402_300_800],
    ["negative", -1],
    ["fractional", Math.floor(Date.now() / 1000) + 600.5],
    ["text", String(Math.floor(Date.now() / 1000) + 600)],
  ];
  try {
    for (const [name, validUntil] of absurd) {
      await t.step(`an order: ${name}`, async () => {
        const signer = await buyer();
        const node = through(async (url, body) =>
          url.pathname === "/api/services/initialize"
            ? { ...(body as Json), providerFee: await fee(validUntil) }
            : undefined
        );
        await untouched(
          signer.address,
          () => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl, maxPrice: "2" }),
        );
      });
    }

    await t.step("a paid compute start: past a date's range", async () => {
      const signer = await buyer();
      const node = through(async (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { algorithm: Json; datasets: Json[] };
        for (const term of [terms.algorithm, ...terms.datasets]) {
          term.providerFee = await fee(8_700_000_000_000);
        }
        return terms;
      });
      await untouched(signer.address, () =>
        node.startCompute({
          signer,
          environment: example.environment,
          algorithm: example.algorithm,
          datasets: [example.dataset],
          rpcUrl: chain.rpcUrl,
          maxPrice: "2",
        }));
    });

    await t.step("the last second of the year 9999 gives a quote with a real date", async () => {
      const signer = await buyer();
      const node = through(async (url, body) =>
        url.pathname === "/api/services/initialize"
          ? { ...(body as Json), providerFee: await fee(253_402_300_799) }
          : undefined
      );
      const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
      assert.equal(quote.validUntil?.toISOString(), "9999-12-31T23:59:59.000Z");
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
