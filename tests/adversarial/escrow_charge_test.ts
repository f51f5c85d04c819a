/**
 * The escrow terms a node states (`payment` of initializeCompute) are read
 * fail-closed: an amount that is not base units in decimal digits (a
 * decimal, an exponent, hex, a negative, another type, none), another
 * token or chain than the one asked for, a payee or escrow that is not an
 * address, or a lock time of zero is refused before anything is paid; an
 * amount of zero is no charge whatever the environment's listed prices
 * say. Checked on anvil: nonces, Ocean balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { hostileNode, moneyWorld } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("escrow terms that are not usable are refused before paying", async (t) => {
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
      escrowAddress: chain.contracts.escrow,
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
      await t.step(`payment.amount as ${what} is refused`, async () => {
        const node = through((url, body) => {
          if (url.pathname !== "/api/services/initializeCompute") return undefined;
          const terms = body as { payment?: Json };
          return { ...terms, payment: { ...terms.payment, amount } };
        });
        const error = await start(node, /escrow terms .* are not usable/);
        assert.match(String(error.details), /amount .* is not a whole number of base units/);
      });
    }

    const terms: [string, (payment: Json) => Json, RegExp][] = [
      [
        "another token",
        (p) => ({ ...p, amount: "5", token: chain.contracts.escrow }),
        /token .* is not the token asked for/,
      ],
      [
        "another chain",
        (p) => ({ ...p, amount: "5", chainId: 1 }),
        /chainId 1 is not the chain asked for/,
      ],
      [
        "a payee that is not an address",
        (p) => ({ ...p, amount: "5", payee: "node" }),
        /payee .* is not an address/,
      ],
      [
        "no escrow address",
        (p) => ({ ...p, amount: "5", escrowAddress: undefined }),
        /escrowAddress null is not an address/,
      ],
      [
        "a lock time of zero",
        (p) => ({ ...p, amount: "5", escrowAddress: chain.contracts.escrow, minLockSeconds: 0 }),
        /minLockSeconds 0 is not a positive/,
      ],
    ];
    for (const [what, rewrite, detail] of terms) {
      await t.step(`escrow terms with ${what} are refused before paying`, async () => {
        const node = through((url, body) => {
          if (url.pathname !== "/api/services/initializeCompute") return undefined;
          const answer = body as { payment?: Json };
          return { ...answer, payment: rewrite(answer.payment ?? {}) };
        });
        const error = await start(node, /escrow terms .* are not usable/);
        assert.match(String(error.details), detail);
      });
    }

    await t.step(
      "an amount of 0 is free whatever the listed prices say: the quote is made",
      async () => {
        const node = through((url, body) => {
          if (url.pathname === "/api/services/computeEnvironments") {
            const environments = structuredClone(body) as { fees?: Record<string, Json[]> }[];
            for (const environment of environments) {
              for (const fee of environment.fees?.[String(chain.chainId)] ?? []) {
                fee.prices = (fee.prices as Json[]).map((p, i) => ({
                  ...p,
                  price: [0, "0.0", "free", null][i % 4],
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
      },
    );
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
