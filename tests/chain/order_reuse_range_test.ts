/**
 * Order reuse on a chain whose RPC refuses wide `getLogs` ranges, as real
 * providers do: orderAsset and startCompute find the earlier order by
 * reading the logs backwards in pages, so reuse works after many blocks.
 */

import assert from "node:assert/strict";
import { orderableAccess } from "../ocean/_orderable.ts";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import { orderAsset } from "../../lib/ocean/order/order_asset.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { startChainSandbox } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";

/**
 * The widest `eth_getLogs` the proxy passes. Real providers allow about
 * 10,000 (tidepool's default page); the test caps at 100 and gives tidepool
 * `logRangeBlocks: 100`, since mining 10,000 blocks takes anvil minutes.
 */
const MAX_LOG_BLOCKS = 100n;
const PAGE = { logRangeBlocks: Number(MAX_LOG_BLOCKS) };

/**
 * A JSON-RPC proxy that refuses an `eth_getLogs` spanning more than
 * {@linkcode MAX_LOG_BLOCKS} blocks, and notes the span of every one it passes.
 */
function rangeCappedRpc(upstream: string) {
  const spans: bigint[] = [];
  const call = async (body: unknown) =>
    await (await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })).json();
  const blockOf = async (tag: unknown): Promise<bigint> =>
    typeof tag === "string" && tag.startsWith("0x")
      ? BigInt(tag)
      : tag === "earliest"
      ? 0n
      : BigInt((await call({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber" })).result);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const body = await request.json();
      if (body.method === "eth_getLogs") {
        const filter = body.params?.[0] ?? {};
        const span = (await blockOf(filter.toBlock ?? "latest")) -
          (await blockOf(filter.fromBlock ?? "earliest")) + 1n;
        if (span > MAX_LOG_BLOCKS) {
          return Response.json({
            jsonrpc: "2.0",
            id: body.id,
            error: { code: -32005, message: `block range ${span} exceeds ${MAX_LOG_BLOCKS}` },
          });
        }
        spans.push(span);
      }
      return Response.json(await call(body));
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    spans,
    close: () => server.shutdown(),
  };
}

Deno.test("a still-valid order is reused after more blocks than one getLogs may span", async (t) => {
  let ocean: ReturnType<typeof startOceanSandbox> | undefined;
  let chain: Awaited<ReturnType<typeof startChainSandbox>> | undefined;
  let proxy: ReturnType<typeof rangeCappedRpc> | undefined;
  try {
    ocean = startOceanSandbox({ count: 40, compute: { stepMs: 5 } });
    const seeded = ocean.computeExample();
    // The download order is of an access service: ocean-node's initialize refuses a compute one.
    const seededAccess = orderableAccess(ocean.ddos, (d) => d.metadata.type === "dataset");
    const seededAccessDid = seededAccess.ddo.id;
    chain = await startChainSandbox(ocean, {
      dids: [seeded.dataset.documentId, seeded.algorithm.documentId, seededAccessDid],
    });
    // Publishing renamed the assets: their DIDs name the chain and their NFTs.
    const { dataset, algorithm, environment } = ocean.computeExample();
    const access = {
      documentId: chain.dids.get(seededAccessDid)!,
      serviceId: seededAccess.serviceId,
    };
    proxy = rangeCappedRpc(chain.rpcUrl);
    const node = new OceanNode(ocean.url, { progress: false, retry: false });
    const { publicClient } = chainClients(chain);
    const buyer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(buyer.address, "10");
    const sent = () => publicClient.getTransactionCount({ address: buyer.address });
    const service = ocean.ddos.find((d) => d.id === access.documentId)!.services
      .find((s) => s.id === access.serviceId)! as { timeout?: number };
    const request = {
      environment,
      algorithm,
      datasets: [dataset],
      rpcUrl: proxy.url,
      maxJobDuration: 60,
      signer: buyer,
      ...PAGE,
    };

    const first = await node.startCompute(request);
    const download = await orderAsset(node, {
      did: access.documentId,
      serviceId: access.serviceId,
      signer: buyer,
      rpcUrl: proxy.url,
      ...PAGE,
    });
    // 250 blocks in the same second (so fees signed on the clock stay valid):
    // the orders are now more than two pages back, and every block is within any timeout.
    const mined = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "anvil_mine",
        params: ["0xfa", "0x0"],
      }),
    });
    assert.equal((await mined.json()).error, undefined);

    await t.step(
      "orderAsset reuses the order, reading at most logRangeBlocks blocks a request",
      async () => {
        for (const timeout of [86_400, 0]) {
          service.timeout = timeout;
          proxy!.spans.length = 0;
          const before = await sent();
          const again = await orderAsset(node, {
            did: access.documentId,
            serviceId: access.serviceId,
            signer: buyer,
            rpcUrl: proxy!.url,
            ...PAGE,
          });
          assert.equal(again.source, "reused", `timeout ${timeout}`);
          assert.equal(again.txHash, download.txHash);
          assert.equal(await sent(), before);
          assert.ok(
            proxy!.spans.length >= 3,
            `${proxy!.spans.length} pages for timeout ${timeout}`,
          );
          assert.ok(proxy!.spans.every((span) => span <= MAX_LOG_BLOCKS));
        }
      },
    );

    await t.step(
      "the default page of 10,000 blocks is refused by a tighter provider, with its error",
      async () => {
        await assert.rejects(
          orderAsset(node, {
            did: access.documentId,
            serviceId: access.serviceId,
            signer: buyer,
            rpcUrl: proxy!.url,
          }),
          (error: Error) => {
            assert.match(error.message, /exceeds defined limit/);
            assert.match((error as { hint?: string }).hint ?? "", /logRangeBlocks/);
            return true;
          },
        );
      },
    );

    await t.step(
      "a logRangeBlocks that is not a whole number of blocks is refused before sending",
      async () => {
        const before = await sent();
        await assert.rejects(
          orderAsset(node, {
            did: access.documentId,
            serviceId: access.serviceId,
            signer: buyer,
            rpcUrl: proxy!.url,
            logRangeBlocks: 0,
          }),
          /logRangeBlocks must be a whole number of blocks/,
        );
        assert.equal(await sent(), before);
      },
    );

    await t.step("startCompute reuses both orders the same way", async () => {
      const before = await sent();
      const again = await node.startCompute(request);
      assert.equal(again.orders.algorithm.source, "reused");
      assert.equal(again.orders.algorithm.txHash, first.orders.algorithm.txHash);
      assert.equal(again.orders.datasets[0].source, "reused");
      assert.equal(await sent(), before);
    });

    await t.step("force orders again instead of reusing", async () => {
      const before = await sent();
      const forced = await node.startCompute({ ...request, force: true });
      assert.notEqual(forced.orders.algorithm.source, "reused");
      assert.notEqual(forced.orders.algorithm.txHash, first.orders.algorithm.txHash);
      assert.ok(await sent() > before);
    });
  } finally {
    await proxy?.close();
    await chain?.close();
    await ocean?.close();
  }
});
