/**
 * The trusted Escrow and the lock bound, approached through the caller's
 * own inputs and the node's spellings: `escrowAddress` written oddly (with
 * whitespace, an upper-case prefix, a digit short, a number) or naming the
 * token or the node itself; `maxLockSeconds` as 0, negative, a fraction, a
 * string, past the safe integers; the node's escrow named in another case
 * than the caller's. Each is refused with nothing sent, or pays exactly
 * the quoted price into the real Escrow. Every outcome is read from anvil
 * with viem.
 */

import assert from "node:assert/strict";
import { getAddress, parseEther } from "viem";
import { OceanNode, TidepoolError } from "../../mod.ts";
import { hostileNode } from "./_money_world.ts";
import { type EscrowWorld, escrowWorld, payer } from "./_escrow_world.ts";

type Json = Record<string, unknown>;

/** Nothing of the payer's moved: no transaction, no Ocean, no escrow funds, no authorization. */
async function untouched(world: EscrowWorld, address: string) {
  assert.equal(await world.sent(address), 0, "no transaction was sent");
  assert.equal(await world.oceanOf(address), parseEther("10"), "no Ocean left the wallet");
  assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "no escrow funds");
  assert.equal(await world.authorization(address), null, "no authorization");
}

Deno.test("odd escrowAddress and maxLockSeconds inputs send nothing", async (t) => {
  const world = await escrowWorld();
  // The node names as its escrow whatever the caller named.
  let named: unknown;
  const proxy = hostileNode(world.ocean.url, (url, body) => {
    if (url.pathname !== "/api/services/initializeCompute" || named === undefined) return undefined;
    const terms = body as { payment: Json };
    return { ...terms, payment: { ...terms.payment, escrowAddress: named } };
  });
  const node = new OceanNode(proxy.url, { progress: false, retry: false });
  try {
    const escrow = world.chain.contracts.escrow;
    const spellings: [string, unknown][] = [
      ["with a leading space", ` ${escrow}`],
      ["with a trailing newline", `${escrow}\n`],
      ["with an upper-case prefix", `0X${escrow.slice(2)}`],
      ["a digit short", escrow.slice(0, -1)],
      ["as a number", Number(BigInt(escrow))],
      ["empty", ""],
    ];
    for (const [what, escrowAddress] of spellings) {
      await t.step(`an escrowAddress ${what}`, async () => {
        const { address, request } = await payer(world);
        named = escrowAddress;
        const asked = { ...request, escrowAddress: escrowAddress as string };
        await assert.rejects(node.quoteCompute(asked), TidepoolError);
        await assert.rejects(node.startCompute(asked), TidepoolError);
        await untouched(world, address);
      });
    }
    const notEscrows: [string, string][] = [
      ["the token", world.chain.contracts.oceanToken],
      ["the node's own address (the payee)", world.chain.nodeAddress],
    ];
    for (const [what, escrowAddress] of notEscrows) {
      await t.step(`an escrowAddress that is ${what}, named by the node too`, async () => {
        const { address, request } = await payer(world);
        named = escrowAddress;
        const asked = { ...request, escrowAddress };
        await assert.rejects(node.quoteCompute(asked), TidepoolError);
        await assert.rejects(node.startCompute(asked), TidepoolError);
        await untouched(world, address);
        assert.equal(await world.allowance(address), 0n, "no allowance to the Escrow");
      });
    }
    named = undefined;
    const bounds: [string, unknown][] = [
      ["0", 0],
      ["negative", -3600],
      ["a fraction", 3600.5],
      ["a string", "3600"],
      ["past the safe integers", 2 ** 53],
      ["1e20", 1e20],
      ["NaN", NaN],
      ["Infinity", Infinity],
      ["null", null],
    ];
    for (const [what, maxLockSeconds] of bounds) {
      await t.step(`maxLockSeconds ${what}`, async () => {
        const { address, request } = await payer(world);
        const asked = { ...request, maxLockSeconds: maxLockSeconds as number };
        const error = await node.startCompute(asked).then(() => undefined, (e) => e);
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.match(error.message, /maxLockSeconds/);
        await untouched(world, address);
      });
    }
  } finally {
    await proxy.close();
    await world.close();
  }
});

Deno.test("the node's escrow in another case than the caller's pays the real Escrow exactly", async (t) => {
  const world = await escrowWorld();
  try {
    const escrow = world.chain.contracts.escrow;
    const cases: [string, string, string][] = [
      ["caller lower case, node checksummed", escrow.toLowerCase(), getAddress(escrow)],
      ["caller checksummed, node lower case", getAddress(escrow), escrow.toLowerCase()],
    ];
    for (const [what, given, spoken] of cases) {
      await t.step(what, async () => {
        const proxy = hostileNode(world.ocean.url, (url, body) => {
          if (url.pathname !== "/api/services/initializeCompute") return undefined;
          const terms = body as { payment: Json };
          return { ...terms, payment: { ...terms.payment, escrowAddress: spoken } };
        });
        try {
          const node = new OceanNode(proxy.url, { progress: false, retry: false });
          const { address, request } = await payer(world);
          const quote = await node.quoteCompute({ ...request, escrowAddress: given });
          const price = quote.escrow!.amount;
          await node.startCompute({ ...request, escrowAddress: given, quote });
          const funds = await world.funds(address);
          assert.deepEqual(funds, { available: 0n, locked: price }, "the price locked, no more");
          assert.equal(
            await world.oceanOf(address),
            parseEther("10") - price,
            "the wallet paid the price into the real Escrow",
          );
          assert.equal(await world.allowance(address), 0n, "the approval is set back");
        } finally {
          await proxy.close();
        }
      });
    }

    await t.step("the payee and token in other cases at the start than at the quote", async () => {
      let asked = 0;
      const proxy = hostileNode(world.ocean.url, (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute" || ++asked === 1) return undefined;
        const terms = body as { payment: Json };
        const flip = (a: unknown) =>
          String(a) === getAddress(String(a)) ? String(a).toLowerCase() : getAddress(String(a));
        return {
          ...terms,
          payment: {
            ...terms.payment,
            payee: flip(terms.payment.payee),
            token: flip(terms.payment.token),
          },
        };
      });
      try {
        const node = new OceanNode(proxy.url, { progress: false, retry: false });
        const { address, request } = await payer(world);
        const quote = await node.quoteCompute(request);
        await node.startCompute({ ...request, quote });
        assert.equal(asked, 2, "asked again at the start");
        const price = quote.escrow!.amount;
        assert.deepEqual(await world.funds(address), { available: 0n, locked: price });
        assert.equal(await world.oceanOf(address), parseEther("10") - price);
        assert.deepEqual(
          await world.authorization(address),
          [0n, price, 0n, 0n, 1n],
          "set back to none, the job's one lock held",
        );
      } finally {
        await proxy.close();
      }
    });
  } finally {
    await world.close();
  }
});
