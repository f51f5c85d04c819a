/**
 * A 5.0.0 DDO (the asset under `credentialSubject`) bought and downloaded
 * on the sandbox chain: orderAsset finds the service's datatoken and timeout
 * through `ddo()`, and every file of the service arrives.
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import { deployOceanContracts, startAnvil } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { putOceanOnChain } from "../../lib/sandbox/chain/put_ocean_on_chain.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { OceanNode } from "../../lib/ocean/ocean_node.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import { downloadAsset } from "../../lib/ocean/order/download_asset.ts";

Deno.test("downloadAsset buys and downloads an access service of a 5.0.0 DDO", async () => {
  // Both started inside try: a failing second start still stops the first.
  let chain: Awaited<ReturnType<typeof startAnvil>> | undefined;
  let ocean: ReturnType<typeof startOceanSandbox> | undefined;
  let dir: string | undefined;
  try {
    chain = await startAnvil();
    ocean = startOceanSandbox({ count: 12, ddoVersion: "5.0.0" });
    dir = await Deno.makeTempDir();
    const contracts = await deployOceanContracts(chain);
    // Orderable as ocean-node sees it: NFT state 0 or 1 and an access service.
    const ddo = ocean.ddos.find((d) =>
      (d.indexedMetadata?.nft?.state ?? 0) <= 1 &&
      d.credentialSubject?.services.some((s) => s.type === "access")
    )!;
    const service = ddo.credentialSubject!.services.find((s) => s.type === "access")!;
    await putOceanOnChain(ocean, chain, contracts, { dids: [ddo.id] });
    const node = new OceanNode(ocean.url, { progress: false, retry: false });
    const sent = await (await fetch(`${ocean.url}/api/aquarius/assets/ddo/${ddo.id}`)).json();
    assert.ok(!("services" in sent), "the node sends the 5.0.0 form");
    assert.equal(
      sent.credentialSubject.services.find((s: { id: string }) => s.id === service.id)
        .datatokenAddress,
      service.datatokenAddress,
      "with the datatoken put on chain",
    );

    const key = generatePrivateKey();
    const signer = signerFromPrivateKey(key);
    await chainClients(chain).publicClient.request({
      method: "anvil_setBalance" as never,
      params: [signer.address, "0x56BC75E2D63100000"] as never,
    });
    const { order, files } = await downloadAsset(node, {
      did: ddo.id,
      serviceId: service.id,
      signer,
      rpcUrl: chain.rpcUrl,
      dir,
    });
    assert.equal(order.source, "dispenser");
    const expected = ocean.files(ddo.id, service.id);
    assert.ok(expected.length > 0);
    assert.equal(files.length, expected.length);
    for (const [i, file] of files.entries()) {
      assert.deepEqual(await Deno.readFile(file.path), expected[i].bytes);
    }
  } finally {
    await ocean?.close();
    await chain?.close();
    if (dir) await Deno.remove(dir, { recursive: true });
  }
});
