/**
 * What ocean-node's `initialize` will not order is refused before it is
 * asked, saying why and what to do: a compute service (run a job instead)
 * and an asset whose NFT state is not 0 or 1 (2 deprecated, 3 revoked,
 * 4 ordering disabled, 5 unlisted), through orderAsset, downloadAsset and
 * quoteOrder. When the DDO does not show it (a node in front hides it),
 * the node's plain-text 500 reaches the user with its text, once, without
 * "try again later". Nothing is sent on chain (nonces, Ocean balances,
 * `OrderStarted` events read with viem).
 */

import assert from "node:assert/strict";
import { generatePrivateKey } from "viem/accounts";
import {
  downloadAsset,
  HttpError,
  OceanNode,
  orderAsset,
  quoteOrder,
  signerFromPrivateKey,
  TidepoolError,
} from "../../mod.ts";
import { moneyWorld } from "./_money_world.ts";

type Json = Record<string, unknown>;

Deno.test("an asset the node will not order is refused before initialize", async (t) => {
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, example } = world;
  const signer = signerFromPrivateKey(generatePrivateKey());
  await chain.fund(signer.address, "20");
  const dir = await Deno.makeTempDir();
  const initializes: string[] = [];
  /** A node in front of the sandbox that counts initialize requests and may change the DDO. */
  let changeDdo: ((ddo: Json) => void) | undefined;
  const proxy: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, async (request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === "/api/services/initialize") initializes.push(url.search);
    if (initializes.length > 20) return new Response("too many", { status: 429 });
    const upstream = `${ocean.url}${url.pathname}${url.search}`;
    const answer = await fetch(upstream, { method: request.method, headers: request.headers });
    const mine: string = `http://127.0.0.1:${proxy.addr.port}`;
    const text = (await answer.text()).replaceAll(ocean.url, mine);
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    if (changeDdo && answer.ok && url.pathname.startsWith("/api/aquarius/assets/ddo/")) {
      const ddo = JSON.parse(text);
      changeDdo(ddo);
      return Response.json(ddo);
    }
    return new Response(text, { status: answer.status, headers });
  });
  const node = new OceanNode(`http://127.0.0.1:${proxy.addr.port}`, {
    progress: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const options = { rpcUrl: chain.rpcUrl };
  const calls = {
    orderAsset: (did: string, serviceId: string) =>
      orderAsset(node, { did, serviceId, signer, ...options }),
    downloadAsset: (did: string, serviceId: string) =>
      downloadAsset(node, { did, serviceId, signer, ...options, dir }),
    quoteOrder: (did: string, serviceId: string) =>
      quoteOrder(node, { did, serviceId, signer, ...options }),
  };
  /** Runs every call, each refused with nothing sent; the errors. */
  const refusedByAll = async (did: string, serviceId: string, pattern: RegExp) => {
    const errors: TidepoolError[] = [];
    for (const [name, call] of Object.entries(calls)) {
      const [sent, held] = [await world.sent(signer.address), await world.oceanOf(signer.address)];
      const error = await call(did, serviceId).then(() => undefined, (e) => e);
      assert.ok(error instanceof TidepoolError, `${name}: refused as a TidepoolError: ${error}`);
      assert.match(error.message, pattern, name);
      assert.doesNotMatch(String(error.hint), /try again later/, name);
      assert.equal(await world.sent(signer.address), sent, `${name}: no transaction`);
      assert.equal(await world.oceanOf(signer.address), held, `${name}: no Ocean spent`);
      errors.push(error);
    }
    assert.equal((await world.ordersPaidBy(signer.address)).length, 0, "no order");
    return errors;
  };
  const download = ocean.ddos.find((d) => d.id === world.download.documentId)!;
  const nft = download.indexedMetadata!.nft!;
  try {
    await t.step("a compute service: told to run a job, initialize never asked", async () => {
      initializes.length = 0;
      const { documentId, serviceId } = example.dataset;
      for (const error of await refusedByAll(documentId, serviceId, /is a compute service/)) {
        assert.match(String(error.hint), /quoteCompute \/ startCompute/);
      }
      assert.equal(initializes.length, 0, "initialize not asked");
    });

    for (const state of [2, 3, 4, 5]) {
      await t.step(`NFT state ${state}: refused by name, initialize never asked`, async () => {
        initializes.length = 0;
        nft.state = state;
        try {
          const { documentId, serviceId } = world.download;
          await refusedByAll(documentId, serviceId, new RegExp(`NFT state is ${state} \\(`));
        } finally {
          nft.state = 0;
        }
        assert.equal(initializes.length, 0, "initialize not asked");
      });
    }

    await t.step("an NFT without a state: refused, as ocean-node refuses it", async () => {
      initializes.length = 0;
      changeDdo = (ddo) => delete ((ddo.indexedMetadata as Json).nft as Json).state;
      try {
        const { documentId, serviceId } = world.download;
        await refusedByAll(documentId, serviceId, /its NFT has no state/);
      } finally {
        changeDdo = undefined;
      }
      assert.equal(initializes.length, 0, "initialize not asked");
    });

    await t.step(
      "a refusal the DDO hides reaches the user with the node's text, once",
      async () => {
        const { documentId, serviceId } = world.download;
        nft.state = 3;
        // The DDO the client reads shows no NFT (one without a state is refused before asking).
        changeDdo = (ddo) => delete (ddo.indexedMetadata as Json).nft;
        try {
          initializes.length = 0;
          const errors = await refusedByAll(
            documentId,
            serviceId,
            /state is different than ACTIVE/,
          );
          for (const error of errors) {
            assert.ok(error instanceof HttpError && error.status === 500, String(error));
            assert.match(String(error.hint), /Not retried/);
          }
          assert.equal(initializes.length, 3, "one initialize per call, not retried");

          // The same for a compute service the DDO calls an access service.
          nft.state = 0;
          changeDdo = (ddo) => {
            for (const s of ddo.services as Json[]) s.type = "access";
          };
          initializes.length = 0;
          const { documentId: dataset, serviceId: compute } = example.dataset;
          await refusedByAll(dataset, compute, /Use the initializeCompute endpoint/);
          assert.equal(initializes.length, 3, "one initialize per call, not retried");
        } finally {
          nft.state = 0;
          changeDdo = undefined;
        }
      },
    );
  } finally {
    await proxy.shutdown();
    await world.close();
    await Deno.remove(dir, { recursive: true });
  }
});
