import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { OceanNode } from "../../lib/ocean/ocean_node.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import { downloadAsset } from "../../lib/ocean/order/download_asset.ts";

Deno.test("startSandbox({ chain: true }): a free and a paid dataset bought and downloaded, every file", async () => {
  const sandbox = await startSandbox({ chain: true, ocean: { count: 8 } });
  const dir = await Deno.makeTempDir();
  try {
    const chain = sandbox.chain!;
    const node = new OceanNode(sandbox.urls.ocean);
    const key = generatePrivateKey();
    const signer = signerFromPrivateKey(key);
    await chain.fund(signer.address, "5");
    // Orderable as ocean-node sees it: NFT state 0 or 1 and an access service first.
    const datasets = sandbox.ocean.ddos.filter((d) =>
      d.metadata.type === "dataset" && (d.indexedMetadata?.nft?.state ?? 0) <= 1 &&
      d.services[0]?.type === "access"
    );
    const free = datasets.find((d) => chain.pricing.get(d.id)?.type === "free")!;
    const paid = datasets.find((d) => chain.pricing.get(d.id)?.type === "fixed")!;
    for (const [ddo, price] of [[free, "0"], [paid, "1.001"]] as const) {
      const serviceId = ddo.services[0].id;
      const { order, files } = await downloadAsset(node, {
        did: ddo.id,
        serviceId,
        signer,
        rpcUrl: chain.rpcUrl,
        dir: `${dir}/${price}`,
        maxPrice: "2",
        verify: true,
      });
      assert.equal(order.pricePaid, price);
      const expected = sandbox.ocean.files(ddo.id, serviceId);
      assert.equal(files.length, expected.length);
      for (const [i, file] of files.entries()) {
        assert.deepEqual(await Deno.readFile(file.path), expected[i].bytes);
      }
    }
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
