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
import { parseAbi, toHex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, orderAsset, quoteOrder, signerFromPrivateKey } from "../../mod.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a node cannot make tidepool pay for another asset than the DID named", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 2 });
  const { ocean, chain, example } = world;
  const { documentId: did, serviceId } = world.download;
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
        const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl })
          .catch((error) => error);
        const order = await orderAsset(node, {
          did,
          serviceId,
          signer,
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

/**
 * The class, not only the case: whatever a node says of an asset (its whole
 * description, its NFT, its chain, a datatoken contract that claims the
 * asset's NFT, the terms of a paid compute start), the order pays only for
 * a datatoken the DID's own NFT deployed on the user's chain. Each member is
 * refused with the reason named, and nothing leaves the wallet: checked with
 * the buyer's nonce, Ocean balance and `OrderStarted` events on anvil.
 */
Deno.test("a DID is tied to the chain: every way a node can swap the asset is refused", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 2 });
  const { ocean, chain, example, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const other = [...chain.pricing.keys()].find((d) =>
    d !== did && d !== example.algorithm.documentId
  )!;
  const otherDdo = ocean.ddos.find((d) => d.id === other)!;
  const otherDatatoken = otherDdo.services[0].datatokenAddress!;
  const ddoPath = (asked: string) => `/api/aquarius/assets/ddo/${encodeURIComponent(asked)}`;
  const proxies: { close(): Promise<void> }[] = [];
  const through = (rewrite: Parameters<typeof hostileNode>[1]) => {
    const proxy = hostileNode(ocean.url, rewrite);
    proxies.push(proxy);
    return new OceanNode(proxy.url, { progress: false, retry: false });
  };
  /** A node that rewrites the DDO of `did` and names `datatoken` in `initialize`. */
  const swapping = (ddo: (body: Json) => Json, datatoken: string) =>
    through((url, body) => {
      if (url.pathname === ddoPath(did)) return ddo(structuredClone(body) as Json);
      if (url.pathname === "/api/services/initialize") return { ...(body as Json), datatoken };
      return undefined;
    });
  const withService = (body: Json, datatoken: string) => {
    (body.services as Json[]).find((s) => s.id === serviceId)!.datatokenAddress = datatoken;
    return body;
  };
  /** Orders through `node`; asserts the refusal names `pattern` and nothing left the wallet. */
  const refused = async (node: OceanNode, pattern: RegExp) => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    const before = await world.oceanOf(signer.address);
    const error = await orderAsset(node, {
      did,
      serviceId,
      signer,
      rpcUrl: chain.rpcUrl,
      maxPrice: "20",
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the order was refused");
    assert.match(error.message, pattern);
    assert.equal(await world.sent(signer.address), 0, "no transaction was sent");
    assert.equal(await world.oceanOf(signer.address), before, "no Ocean left the wallet");
    assert.deepEqual(await world.ordersPaidBy(signer.address), []);
  };
  try {
    await t.step("the node serves another asset's whole description", async () => {
      const node = swapping(() => structuredClone(otherDdo) as unknown as Json, otherDatatoken);
      await refused(node, /served the description of another asset/);
    });

    await t.step("the description names the other asset's NFT and datatoken", async () => {
      const node = swapping(
        (body) => withService({ ...body, nftAddress: otherDdo.nftAddress }, otherDatatoken),
        otherDatatoken,
      );
      await refused(node, /names data NFT 0x[0-9a-fA-F]{40}, whose DID on chain 31337 is did:op:/);
    });

    await t.step("the description says another chain", async () => {
      const node = swapping((body) => ({ ...body, chainId: 137 }), otherDatatoken);
      await refused(node, /the asset is on chain 137, the order on chain 31337/);
    });

    await t.step("a datatoken contract that claims the asset's NFT", async () => {
      // The other asset's datatoken, its NFT field set to this asset's NFT: a
      // contract anyone could deploy (anvil's storage edit stands in for its code).
      const asset = ocean.ddos.find((d) => d.id === did)!;
      const claimed = asset.nftAddress.toLowerCase().slice(2);
      const own = otherDdo.nftAddress.toLowerCase().slice(2);
      let edited = false;
      for (let slot = 0; slot < 256 && !edited; slot++) {
        const at = toHex(slot, { size: 32 });
        const value = (await reader.getStorageAt({
          address: otherDatatoken as `0x${string}`,
          slot: at,
        }))?.toLowerCase();
        if (!value?.includes(own)) continue;
        await reader.request({
          method: "anvil_setStorageAt" as never,
          params: [otherDatatoken, at, value.replace(own, claimed)] as never,
        });
        edited = true;
      }
      assert.ok(edited, "found the datatoken's NFT field");
      const claims = await reader.readContract({
        address: otherDatatoken as `0x${string}`,
        abi: parseAbi(["function getERC721Address() view returns (address)"]),
        functionName: "getERC721Address",
      });
      assert.equal(claims.toLowerCase(), asset.nftAddress.toLowerCase());
      const node = swapping((body) => withService(body, otherDatatoken), otherDatatoken);
      await refused(node, /is not one of the asset's data NFT .*did not deploy it/s);
    });

    await t.step("a paid compute start whose terms and description swap the dataset", async () => {
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "10");
      const node = through((url, body) => {
        if (url.pathname === ddoPath(did)) {
          return withService(structuredClone(body) as Json, otherDatatoken);
        }
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = structuredClone(body) as { datasets: Json[] };
        for (const term of terms.datasets) {
          if (term.did === did) term.datatoken = otherDatatoken;
        }
        return terms;
      });
      const error = await node.startCompute({
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
        maxJobDuration: 60,
        rpcUrl: chain.rpcUrl,
      }).then(() => undefined, (e) => e);
      assert.ok(error instanceof Error, "the start was refused");
      assert.match(error.message, /not one of the asset's data NFT/);
      assert.equal(await world.sent(signer.address), 0, "no transaction was sent");
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
