import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployOceanContracts, startAnvil } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { putOceanOnChain } from "../../lib/sandbox/chain/put_ocean_on_chain.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { OceanNode } from "../../lib/ocean/ocean_node.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import { orderDatatoken, type OrderProviderFee } from "../../lib/ocean/order/order_datatoken.ts";
import { orderAsset } from "../../lib/ocean/order/order_asset.ts";
import { orderableAccess } from "../ocean/_orderable.ts";

Deno.test("the sandbox node serves a download only for an order on chain by this consumer", async () => {
  const chain = await startAnvil();
  const ocean = startOceanSandbox({ count: 6 });
  const dir = await Deno.makeTempDir();
  try {
    const contracts = await deployOceanContracts(chain);
    const { ddo, serviceIndex } = orderableAccess(ocean.ddos, (d) => d.metadata.type === "dataset");
    await putOceanOnChain(ocean, chain, contracts, { dids: [ddo.id] });
    const client = new OceanNode(ocean.url);
    const buyerKey = generatePrivateKey();
    const buyer = privateKeyToAccount(buyerKey);
    const thiefKey = generatePrivateKey();
    const { publicClient } = chainClients(chain);
    await publicClient.request({
      method: "anvil_setBalance" as never,
      params: [buyer.address, "0x56BC75E2D63100000"] as never,
    });

    const served = await client.ddo(ddo.id);
    const service = served.services[serviceIndex];
    const answer = await client.initialize({
      did: ddo.id,
      serviceId: service.id,
      consumer: buyer.address,
    });
    assert.equal(answer.datatoken, service.datatokenAddress);
    const order = await orderDatatoken({
      rpcUrl: chain.rpcUrl,
      account: buyer,
      datatoken: service.datatokenAddress!,
      serviceIndex: 0,
      providerFee: answer.providerFee as unknown as OrderProviderFee,
    });

    // Someone else presents the buyer's transaction: refused, nothing saved.
    const thiefDir = await Deno.makeTempDir();
    await assert.rejects(
      client.download({
        did: ddo.id,
        serviceId: service.id,
        txId: order.txHash,
        signer: signerFromPrivateKey(thiefKey),
        dir: thiefDir,
      }),
      (error: Error) => {
        assert.match(error.message, /another address/);
        assert.ok(!error.message.includes(thiefKey.slice(2)));
        return true;
      },
    );
    assert.deepEqual([...Deno.readDirSync(thiefDir)], []);
    await Deno.remove(thiefDir, { recursive: true });

    const saved = await client.download({
      did: ddo.id,
      serviceId: service.id,
      txId: order.txHash,
      signer: signerFromPrivateKey(buyerKey),
      dir,
    });
    const expected = ocean.files(ddo.id, service.id)[0].bytes;
    assert.deepEqual(await Deno.readFile(saved.path), expected);
  } finally {
    await ocean.close();
    await chain.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("orderAsset orders through the node's initialize and reuses a still-valid order", async () => {
  const chain = await startAnvil();
  const ocean = startOceanSandbox({ count: 6 });
  try {
    const contracts = await deployOceanContracts(chain);
    const { ddo, serviceId } = orderableAccess(ocean.ddos, (d) => d.metadata.type === "dataset");
    await putOceanOnChain(ocean, chain, contracts, { dids: [ddo.id] });
    const node = new OceanNode(ocean.url);
    const key = generatePrivateKey();
    const signer = signerFromPrivateKey(key);
    const { publicClient } = chainClients(chain);
    await publicClient.request({
      method: "anvil_setBalance" as never,
      params: [signer.address, "0x56BC75E2D63100000"] as never,
    });
    const first = await orderAsset(node, { did: ddo.id, serviceId, signer, rpcUrl: chain.rpcUrl });
    assert.equal(first.source, "dispenser");
    const sent = await publicClient.getTransactionCount({ address: signer.address });
    const again = await orderAsset(node, { did: ddo.id, serviceId, signer, rpcUrl: chain.rpcUrl });
    assert.deepEqual(again, {
      ...first,
      source: "reused",
      pricePaid: "0",
      paid: [],
      transactions: [],
    });
    assert.deepEqual(first.paid.map((p) => [p.part, p.amount]), [["datatoken", "1"]]);
    assert.equal(await publicClient.getTransactionCount({ address: signer.address }), sent);
    const forced = await orderAsset(node, {
      did: ddo.id,
      serviceId,
      signer,
      rpcUrl: chain.rpcUrl,
      force: true,
    });
    assert.notEqual(forced.txHash, first.txHash);
    const shown = Deno.inspect({ signer, first, again, forced }) + JSON.stringify({ signer });
    assert.ok(!shown.includes(key.slice(2)));
  } finally {
    await ocean.close();
    await chain.close();
  }
});
