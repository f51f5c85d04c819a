/**
 * A recording decides no payment and sends nothing: an edited DDO in a
 * record-mode cache (a co-author's recording) does not choose the datatoken
 * paid for, and in replay mode every order and paid start is refused before
 * anything is signed, while chain reads (`chainOrders`) still replay.
 * Checked on anvil: nonces, Ocean balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  chainOrders,
  OceanNode,
  orderAsset,
  orderDatatoken,
  signerFromPrivateKey,
  TidepoolError,
} from "../../mod.ts";
import { moneyWorld } from "./_money_world.ts";

/** Every cache file below `dir`. */
async function cacheFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await cacheFiles(path));
    else if (entry.name.endsWith(".json")) files.push(path);
  }
  return files;
}

/** Edits the recorded DDO of `did` in place, as a co-author's file might arrive. */
async function editRecordedDdo(
  dir: string,
  did: string,
  edit: (ddo: { services: { datatokenAddress?: string }[] }) => void,
) {
  let edited = 0;
  for (const path of await cacheFiles(dir)) {
    const file = JSON.parse(await Deno.readTextFile(path));
    if (!String(file.url ?? "").includes(`/assets/ddo/${encodeURIComponent(did)}`)) continue;
    const ddo = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(file.bodyBase64), (c) => c.charCodeAt(0))),
    );
    edit(ddo);
    const bytes = new TextEncoder().encode(JSON.stringify(ddo));
    file.bodyBase64 = btoa(String.fromCharCode(...bytes));
    await Deno.writeTextFile(path, JSON.stringify(file));
    edited++;
  }
  assert.ok(edited > 0, "the DDO was recorded");
}

Deno.test("a recording neither decides a payment nor sends one", async (t) => {
  // The datasets are free (the compute one first, the one to download last, at position 4);
  // the third asset costs 7 Ocean.
  const world = await moneyWorld({
    extra: 2,
    pricing: (_did, position) =>
      position === 0 || position === 4
        ? { type: "free" }
        : { type: "fixed", price: position === 2 ? "7" : "1" },
  });
  const { ocean, chain, example } = world;
  const { documentId: did, serviceId } = world.download;
  const dear = [...chain.pricing].find(([, p]) => p.type === "fixed" && p.price === "7")![0];
  const dearDatatoken = ocean.ddos.find((d) => d.id === dear)!.services[0].datatokenAddress!;
  const realDatatoken = ocean.ddos.find((d) => d.id === did)!.services
    .find((s) => s.id === serviceId)!.datatokenAddress!;
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const buyer = async () => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "20");
    return signer;
  };
  try {
    await t.step("an edited recorded DDO does not choose what record mode pays for", async () => {
      const recording = new OceanNode(ocean.url, {
        progress: false,
        cache: { dir, mode: "record" },
      });
      await recording.ddo(did);
      await editRecordedDdo(dir, did, (ddo) => {
        for (const service of ddo.services) service.datatokenAddress = dearDatatoken;
      });
      assert.equal(
        (await recording.ddo(did)).services[0].datatokenAddress,
        dearDatatoken,
        "reads replay the edited recording",
      );
      const signer = await buyer();
      const held = await world.oceanOf(signer.address);
      const order = await orderAsset(recording, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
      assert.equal(await world.oceanOf(signer.address), held, "a free dataset cost nothing");
      const paid = await world.ordersPaidBy(signer.address);
      assert.deepEqual(paid, [{ datatoken: realDatatoken.toLowerCase(), tx: order.txHash }]);
      const saved = await Deno.makeTempDir();
      const file = await recording.download({
        did,
        serviceId,
        txId: order.txHash,
        signer,
        dir: saved,
      });
      assert.ok(file.bytes > 0, "the order is the one the node checks");
    });

    const replayNode = new OceanNode(ocean.url, {
      progress: false,
      cache: { dir, mode: "replay" },
    });
    const refusedInReplay = async (address: string, run: () => Promise<unknown>) => {
      const sent = await world.sent(address);
      const held = await world.oceanOf(address);
      const error = await run().then(() => undefined, (e) => e);
      assert.ok(error instanceof TidepoolError, `refused: ${error}`);
      assert.match(error.message, /in replay mode: a recording never decides or sends a payment/);
      assert.match(String(error.hint), /Run the payment live/);
      assert.equal(await world.sent(address), sent, "nothing was signed or sent");
      assert.equal(await world.oceanOf(address), held);
    };

    await t.step("replay refuses orderAsset before signing, fee in hand or not", async () => {
      const signer = await buyer();
      const { providerFee } = await new OceanNode(ocean.url, { progress: false })
        .initialize({ did, serviceId, consumer: signer.address });
      await refusedInReplay(
        signer.address,
        () => orderAsset(replayNode, { did, serviceId, signer, rpcUrl: chain.rpcUrl, providerFee }),
      );
      await refusedInReplay(
        signer.address,
        () => orderAsset(replayNode, { did, serviceId, signer, rpcUrl: chain.rpcUrl }),
      );
    });

    await t.step("TIDEPOOL_CACHE_MODE=replay refuses orderDatatoken and paid compute", async () => {
      const signer = await buyer();
      const account = privateKeyToAccount(generatePrivateKey());
      await chain.fund(account.address, "20");
      const { providerFee } = await new OceanNode(ocean.url, { progress: false })
        .initialize({ did, serviceId, consumer: account.address });
      Deno.env.set("TIDEPOOL_CACHE_MODE", "replay");
      Deno.env.set("TIDEPOOL_CACHE_DIR", dir);
      try {
        await refusedInReplay(account.address, () =>
          orderDatatoken({
            rpcUrl: chain.rpcUrl,
            account,
            datatoken: realDatatoken,
            serviceIndex: 0,
            providerFee: providerFee as never,
          }));
        await refusedInReplay(
          signer.address,
          () =>
            new OceanNode(ocean.url, { progress: false }).startCompute({
              signer,
              environment: example.environment,
              algorithm: example.algorithm,
              datasets: [example.dataset],
              rpcUrl: chain.rpcUrl,
            }),
        );
      } finally {
        Deno.env.delete("TIDEPOOL_CACHE_MODE");
        Deno.env.delete("TIDEPOOL_CACHE_DIR");
      }
    });

    await t.step("chain reads still record and replay", async () => {
      const recorded = await chainOrders({ rpcUrl: chain.rpcUrl, cache: { dir, mode: "record" } });
      assert.ok(recorded.numRows() > 0);
      const replayed = await chainOrders({ rpcUrl: chain.rpcUrl, cache: { dir, mode: "replay" } });
      assert.deepEqual(replayed.objects(), recorded.objects());
    });
  } finally {
    await world.close();
    await Deno.remove(dir, { recursive: true });
  }
});
