/**
 * A quote whose chains disagree. The trusted Escrow is looked up by the
 * chain the quote's `payment` names, while the start signs and sends on
 * the quote's `chainId`: a quote given to `startCompute` whose
 * `payment.chainId` names another chain (here Optimism, whose Escrow
 * ocean-contracts lists) has tidepool trust that chain's Escrow address on
 * the chain it pays on, where the address is anyone's (here a contract
 * that keeps what is "deposited"). The class: one quote, two chains, the
 * Escrow of one paid on the other. Members: the payment's chain edited
 * alone; a whole quote of another chain given to a start on this one; a
 * `chainId` the RPC URL does not serve; a JSON-RPC that says it is the
 * chain named (its transactions, signed for that chain, are not mined). Every outcome is read from anvil
 * with viem.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { OceanNode, TidepoolError } from "../../mod.ts";
import { hostileNode, rpcProxy } from "./_money_world.ts";
import { type EscrowWorld, escrowWorld, payer, THIEF_RUNTIME } from "./_escrow_world.ts";

type Json = Record<string, unknown>;

/** Optimism (10) and the Escrow ocean-contracts 2.6.0 lists for it. */
const OPTIMISM = 10;
const OPTIMISM_ESCROW = "0x4dD281EB67DED07E76E413Df16176D66ae69e240";

/** What the contract at Optimism's Escrow address holds of Ocean on this chain. */
function kept(world: EscrowWorld): Promise<bigint> {
  return world.balance(world.chain.contracts.oceanToken, OPTIMISM_ESCROW);
}

/** Nothing of the payer's moved, and the contract at Optimism's Escrow address took nothing. */
async function untouched(world: EscrowWorld, address: string, before: bigint) {
  assert.equal(await world.sent(address), 0, "no transaction was sent");
  assert.equal(await world.oceanOf(address), parseEther("10"), "no Ocean left the wallet");
  assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "no escrow funds");
  assert.equal(await kept(world), before, "the contract at Optimism's Escrow address took nothing");
}

Deno.test("a quote whose chains disagree pays no Escrow of another chain", async (t) => {
  const world = await escrowWorld();
  // On this chain, Optimism's Escrow address is a contract that keeps deposits.
  await world.reader.request({
    method: "anvil_setCode" as never,
    params: [OPTIMISM_ESCROW, THIEF_RUNTIME] as never,
  });
  // Asked on Optimism, the node names Optimism's Escrow, and asks this chain's node.
  const chainId = world.chain.chainId;
  let onOptimism = false;
  const proxy = hostileNode(world.ocean.url, (url, body) => {
    if (url.pathname === "/api/services/computeEnvironments") {
      // Its environments take payments on Optimism as on this chain.
      return (body as { fees?: Record<string, unknown> }[]).map((env) =>
        env.fees ? { ...env, fees: { ...env.fees, [OPTIMISM]: env.fees[chainId] } } : env
      );
    }
    const terms = body as { payment?: Json };
    if (url.pathname !== "/api/services/initializeCompute" || !onOptimism) return undefined;
    if (!terms.payment) return undefined;
    const { chainId: _, ...payment } = terms.payment;
    return { ...terms, payment: { ...payment, escrowAddress: OPTIMISM_ESCROW } };
  }, (url, body) => {
    const asked = body as { payment?: Json };
    if (!url.pathname.startsWith("/api/services/") || !asked.payment) return undefined;
    if (url.pathname === "/api/services/initializeCompute") {
      onOptimism = asked.payment.chainId === OPTIMISM;
    }
    return { ...asked, payment: { ...asked.payment, chainId } };
  });
  const node = new OceanNode(proxy.url, { progress: false, retry: false });
  try {
    const edits: [string, { chainId?: number }, RegExp][] = [
      ["the payment's chain edited alone", {}, /not for chain 31337 throughout/],
      ["a whole quote of another chain, started on this one", { chainId: OPTIMISM }, /chain/],
    ];
    for (const [what, quoted, pattern] of edits) {
      await t.step(what, async () => {
        const { address, request } = await payer(world);
        const before = await kept(world);
        const quote = await node.quoteCompute(request);
        assert.ok(quote.escrow, "the job is charged through an escrow");
        const edited = {
          ...quote,
          ...quoted,
          payment: { ...quote.payment, chainId: OPTIMISM },
          escrow: { ...quote.escrow, chainId: OPTIMISM, escrow: OPTIMISM_ESCROW },
        } as typeof quote;
        const { escrowAddress: _, ...trustingTheList } = request;
        const error = await node.startCompute({ ...trustingTheList, quote: edited }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.match(error.message, pattern);
        await untouched(world, address, before);
      });
    }

    await t.step("a chainId the RPC URL does not serve", async () => {
      const { address, request } = await payer(world);
      const before = await kept(world);
      const { escrowAddress: _, ...trustingTheList } = request;
      const onOptimism = { ...trustingTheList, chainId: OPTIMISM };
      await assert.rejects(node.quoteCompute(onOptimism), TidepoolError);
      await assert.rejects(node.startCompute(onOptimism), TidepoolError);
      await untouched(world, address, before);
    });

    await t.step("a JSON-RPC that says it is the chain named, with the orders made", async () => {
      const { address, request } = await payer(world);
      // An honest job first: its orders stay valid, so the next start orders nothing.
      const honest = new OceanNode(world.ocean.url, { progress: false, retry: false });
      const { orders } = await honest.startCompute(request);
      const paid = await world.oceanOf(address);
      const sent = await world.sent(address);
      const before = await kept(world);
      // It says chain 10, and fills no transaction (which would show anvil's own id).
      const lying = rpcProxy(world.chain.rpcUrl, {
        before: (call) =>
          Promise.resolve(
            call.method === "eth_chainId"
              ? { result: `0x${OPTIMISM.toString(16)}` }
              : call.method === "eth_fillTransaction"
              ? { error: { code: -32601, message: "Method not found" } }
              : undefined,
          ),
      });
      try {
        const { escrowAddress: _, ...trustingTheList } = request;
        const onOptimism = {
          ...trustingTheList,
          algorithm: { ...request.algorithm, transferTxId: orders.algorithm.txHash },
          datasets: [{ ...request.datasets[0], transferTxId: orders.datasets[0].txHash }],
          chainId: OPTIMISM,
          rpcUrl: lying.url,
        };
        await assert.rejects(node.startCompute(onOptimism), TidepoolError);
      } finally {
        await lying.close();
      }
      assert.equal(await world.sent(address), sent, "no transaction was mined");
      assert.equal(await world.oceanOf(address), paid, "no Ocean left the wallet");
      assert.equal(await kept(world), before, "the contract at Optimism's Escrow took nothing");
    });
  } finally {
    await proxy.close();
    await world.close();
  }
});
