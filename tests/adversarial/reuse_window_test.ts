/**
 * The reuse window is the node's word: a service's `timeout` comes from the
 * DDO the node serves, and the reuse check takes it as a number whatever it
 * is. A negative timeout makes every earlier order look expired, so calls
 * started together, which should pay once, each pay. Checked on anvil: the
 * buyer's `OrderStarted` events and its Ocean.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey } from "../../mod.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("a node's malformed service timeout cannot make parallel calls pay twice", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain } = world;
  const { documentId: did, serviceId } = world.download;
  const proxies: { close(): Promise<void> }[] = [];
  try {
    for (const timeout of [-1, -3600]) {
      await t.step(`timeout ${timeout}`, async () => {
        const signer = signerFromPrivateKey(generatePrivateKey());
        await chain.fund(signer.address, "10");
        const proxy = hostileNode(ocean.url, (url, body) => {
          if (!url.pathname.startsWith("/api/aquarius/assets/ddo/")) return undefined;
          const ddo = structuredClone(body) as { services: Json[] };
          ddo.services.find((s) => s.id === serviceId)!.timeout = timeout;
          return ddo;
        });
        proxies.push(proxy);
        const node = new OceanNode(proxy.url, { progress: false, retry: false });
        const before = await world.oceanOf(signer.address);
        const results = await Promise.all(
          [0, 1, 2].map(() =>
            orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl })
              .then((order) => order.source, (error) => (error as Error).message)
          ),
        );
        const paid = await world.ordersPaidBy(signer.address);
        assert.ok(
          paid.length <= 1,
          `three calls at once paid ${paid.length} orders (${results.join("; ")})`,
        );
        assert.ok(before - await world.oceanOf(signer.address) <= 1001000000000000000n);
      });
    }
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
