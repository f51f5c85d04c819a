/**
 * A charge for compute resources is refused unless it is provably zero
 * (fail-closed): a hostile node that writes its `payment.amount`, or its
 * environment's resource prices, as a decimal, an exponent, hex, a
 * negative or another type cannot have it taken for free. A priced
 * environment is refused before initializeCompute is sent; a charged
 * amount before any order. Checked on anvil: nonces, Ocean balances,
 * `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { hostileNode, moneyWorld } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a resource charge that is not provably zero is refused before paying", async (t) => {
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, example } = world;
  const proxies: { close(): Promise<void> }[] = [];
  const seen: string[] = [];
  const through = (rewrite: (url: URL, body: unknown) => unknown) => {
    const proxy = hostileNode(ocean.url, (url, body) => {
      seen.push(url.pathname);
      return rewrite(url, body);
    });
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const start = async (node: OceanNode, pattern: RegExp) => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "20");
    const [sent, held] = [await world.sent(signer.address), await world.oceanOf(signer.address)];
    const error = await node.startCompute({
      signer,
      environment: example.environment,
      algorithm: example.algorithm,
      datasets: [example.dataset],
      rpcUrl: chain.rpcUrl,
      maxPrice: "10",
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `refused as a TidepoolError: ${error}`);
    assert.match(error.message, pattern);
    assert.match(String(error.hint), /Nothing was sent or paid/);
    assert.equal(await world.sent(signer.address), sent, "no transaction was sent");
    assert.equal(await world.oceanOf(signer.address), held, "no Ocean left the wallet");
    assert.equal((await world.ordersPaidBy(signer.address)).length, 0, "no order");
    return error as TidepoolError;
  };
  try {
    const amounts: [string, unknown][] = [
      ["a decimal", "1.5"],
      ["an exponent", 1e21],
      ["hex", "0x10"],
      ["a negative string", "-1"],
      ["a negative number", -5],
      ["a boolean", true],
      ["an object", { value: "1" }],
      ["no amount at all", undefined],
    ];
    for (const [what, amount] of amounts) {
      await t.step(`payment.amount as ${what} is a charge`, async () => {
        const node = through((url, body) => {
          if (url.pathname !== "/api/services/initializeCompute") return undefined;
          const terms = body as { payment?: Json };
          return { ...terms, payment: { ...terms.payment, amount } };
        });
        await start(node, /charges .*base units .*escrow lock tidepool does not make/);
      });
    }

    const prices: [string, unknown][] = [
      ["a decimal string", "1.5"],
      ["an exponent", 1e21],
      ["hex", "0x10"],
      ["a negative", -1],
      ["a word", "free"],
      ["null", null],
    ];
    for (const [what, price] of prices) {
      await t.step(`a resource price as ${what} is refused before initializeCompute`, async () => {
        seen.length = 0;
        const node = through((url, body) => {
          if (url.pathname !== "/api/services/computeEnvironments") return undefined;
          const environments = structuredClone(body) as { fees?: Record<string, Json[]> }[];
          for (const environment of environments) {
            for (const fee of environment.fees?.[String(chain.chainId)] ?? []) {
              fee.prices = [{ id: "cpu", price }, ...(fee.prices as Json[]).slice(1)];
            }
          }
          return environments;
        });
        const error = await start(node, /environment .* charges for its resources/);
        assert.match(String(error.details), /cpu /);
        assert.ok(!seen.includes("/api/services/initializeCompute"), "initializeCompute not sent");
      });
    }

    await t.step("a fee entry without its prices is refused too", async () => {
      seen.length = 0;
      const node = through((url, body) => {
        if (url.pathname !== "/api/services/computeEnvironments") return undefined;
        const environments = structuredClone(body) as { fees?: Record<string, Json[]> }[];
        for (const environment of environments) {
          for (const fee of environment.fees?.[String(chain.chainId)] ?? []) delete fee.prices;
        }
        return environments;
      });
      const error = await start(node, /environment .* charges for its resources/);
      assert.match(String(error.details), /not a list/);
      assert.ok(!seen.includes("/api/services/initializeCompute"), "initializeCompute not sent");
    });

    await t.step('zero written as 0 and "0.0" is free: the quote is made', async () => {
      const node = through((url, body) => {
        if (url.pathname === "/api/services/computeEnvironments") {
          const environments = structuredClone(body) as { fees?: Record<string, Json[]> }[];
          for (const environment of environments) {
            for (const fee of environment.fees?.[String(chain.chainId)] ?? []) {
              fee.prices = (fee.prices as Json[]).map((p, i) => ({
                ...p,
                price: [0, "0.0"][i % 2],
              }));
            }
          }
          return environments;
        }
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { payment?: Json };
        return { ...terms, payment: { ...terms.payment, amount: 0 } };
      });
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "20");
      const quote = await node.quoteCompute({
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
        rpcUrl: chain.rpcUrl,
      });
      assert.equal(quote.environment, example.environment);
      assert.equal(await world.sent(signer.address), 0, "a quote sends nothing");
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
