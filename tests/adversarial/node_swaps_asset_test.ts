/**
 * A node that swaps the whole asset: asked for one DID, it serves that DID's
 * DDO with another asset's datatoken, and an `initialize` answer that agrees
 * with it (the same other datatoken, or no datatoken at all). tidepool only
 * checks the node against itself (the DDO against `initialize`, both the
 * node's word), never the DID against the chain (`did:op:` is the SHA-256
 * of the data NFT's address and the chain id; the datatoken's NFT is on
 * chain), so it pays for an asset the user did not name. Checked on anvil:
 * the `OrderStarted` events of the buyer and the datatokens it holds.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, orderAsset, quoteOrder, signerFromPrivateKey } from "../../mod.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a node cannot make tidepool pay for another asset than the DID named", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 2 });
  const { ocean, chain, example } = world;
  const { documentId: did, serviceId } = example.dataset;
  const other = [...chain.pricing.keys()].find((d) =>
    d !== did && d !== example.algorithm.documentId
  )!;
  const otherDatatoken = ocean.ddos.find((d) => d.id === other)!.services[0].datatokenAddress!;
  const proxies: { close(): Promise<void> }[] = [];
  /** A node that serves `did` with the other asset's datatoken; `initialize` says what `answer` makes of it. */
  const swapping = (answer: (body: Json) => Json) => {
    const proxy = hostileNode(ocean.url, (url, body) => {
      if (url.pathname === `/api/aquarius/assets/ddo/${encodeURIComponent(did)}`) {
        const ddo = structuredClone(body) as { services: Json[] };
        ddo.services.find((s) => s.id === serviceId)!.datatokenAddress = otherDatatoken;
        return ddo;
      }
      if (url.pathname === "/api/services/initialize") return answer(body as Json);
      return undefined;
    });
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  const cases: [string, (body: Json) => Json][] = [
    ["initialize names the swapped datatoken", (body) => ({ ...body, datatoken: otherDatatoken })],
    ["initialize names no datatoken", ({ datatoken: _, ...body }) => body],
  ];
  try {
    for (const [name, answer] of cases) {
      await t.step(name, async () => {
        const signer = signerFromPrivateKey(generatePrivateKey());
        await chain.fund(signer.address, "10");
        const node = swapping(answer);
        const quote = await quoteOrder(node, did, serviceId, signer, { rpcUrl: chain.rpcUrl })
          .catch((error) => error);
        const order = await orderAsset(node, did, serviceId, signer, {
          rpcUrl: chain.rpcUrl,
          maxPrice: "2",
        }).catch((error) => error);
        const paid = await world.ordersPaidBy(signer.address);
        assert.deepEqual(
          paid.filter((o) => o.datatoken.toLowerCase() === otherDatatoken.toLowerCase()),
          [],
          `an order of ${did} was paid on another asset's datatoken ${otherDatatoken} (quote: ${
            quote instanceof Error ? quote.message : quote.orders[0].datatoken
          }; order: ${order instanceof Error ? order.message : order.txHash})`,
        );
        assert.equal(await world.balance(otherDatatoken, signer.address), 0n);
      });
    }
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
