import assert from "node:assert/strict";
import { hexToBytes, keccak256, recoverMessageAddress, stringToBytes } from "viem";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import {
  SANDBOX_NODE_ADDRESS,
  SANDBOX_NODE_KEY,
  SANDBOX_WALLET_KEY,
} from "../../lib/sandbox/ocean/compute/mod.ts";
import { AuthError, HttpError, TidepoolError } from "../../lib/errors/errors.ts";

const quiet = { progress: false as const, warn: () => {} };
const decrypter = signerFromPrivateKey(`0x${"d3".repeat(32)}`);

Deno.test("encrypt seals with the node's key; only authorized decrypters can open it", async () => {
  const sandbox = startOceanSandbox({
    count: 60,
    compute: { authorizedDecrypters: [decrypter.address] },
  });
  try {
    const node = new OceanNode(sandbox.url, quiet);
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const files = [{ type: "url", url: "https://data.example/rain.csv", method: "GET" }];
    const sealed = await node.encrypt(files, { signer });
    assert.match(sealed, /^0x[0-9a-f]+$/);
    assert.ok(!sealed.includes("rain"), "the URL is not readable in the sealed text");
    const open = (who: typeof signer, encryptedDocument: string) =>
      node.decrypt({ signer: who, chainId: 11155111, encryptedDocument });
    assert.deepEqual(JSON.parse(await open(decrypter, sealed)), files);
    const nodeItself = signerFromPrivateKey(SANDBOX_NODE_KEY);
    assert.equal(nodeItself.address, SANDBOX_NODE_ADDRESS);
    assert.deepEqual(JSON.parse(await open(nodeItself, sealed)), files, "the node may always");
    const stranger = signerFromPrivateKey(`0x${"ab".repeat(32)}`);
    await assert.rejects(() => open(stranger, sealed), (error: unknown) => {
      assert.ok(error instanceof AuthError);
      assert.equal(error.status, 403);
      assert.match(error.message, /Decrypter not authorized/);
      assert.ok(error.message.includes(stranger.address));
      return true;
    });
    // Text and bytes are sealed as given.
    const text = await node.encrypt("成田空港", { signer });
    assert.equal(await open(decrypter, text), "成田空港");
  } finally {
    await sandbox.close();
  }
});

for (const pre1 of [false, true]) {
  const node = pre1 ? "a node before 1.0" : "today's ocean-node";
  Deno.test(`decrypt: ${node} checks the decrypter's signature over its own message`, async () => {
    const sandbox = startOceanSandbox({
      count: 10,
      compute: { authorizedDecrypters: [decrypter.address], pre1DecryptMessage: pre1 },
    });
    try {
      const client = new OceanNode(sandbox.url, quiet);
      const sealed = await client.encrypt("tide table", {
        signer: signerFromPrivateKey(SANDBOX_WALLET_KEY),
      });
      // A request signed by another key under the decrypter's address is refused by the node.
      const impostor = signerFromPrivateKey(`0x${"ee".repeat(32)}`);
      const forged = {
        address: decrypter.address,
        signMessage: (args: { message: string | { raw: `0x${string}` | Uint8Array } }) =>
          impostor.signMessage(args),
      };
      await assert.rejects(
        () => client.decrypt({ signer: forged, chainId: 11155111, encryptedDocument: sealed }),
        (error: unknown) => {
          assert.ok(error instanceof AuthError, String(error));
          assert.match(error.message, pre1 ? /invalid signature/ : /signature mismatch/);
          return true;
        },
      );
      // What the node accepted recovers, checked here with viem, to the decrypter.
      const bodies: Record<string, unknown>[] = [];
      const watched = new OceanNode(sandbox.url, {
        ...quiet,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          if (new URL(request.url).pathname === "/api/services/decrypt") {
            bodies.push(await request.clone().json());
          }
          return fetch(request);
        },
      });
      const nft = `0x${"4".repeat(40)}`;
      assert.equal(
        await watched.decrypt({
          signer: decrypter,
          chainId: 11155111,
          encryptedDocument: sealed,
          dataNftAddress: nft,
        }),
        "tide table",
      );
      // Today's node gets one request; an older one first refuses today's form, then takes its own.
      assert.equal(bodies.length, pre1 ? 2 : 1);
      const sent = bodies.at(-1)!;
      const message = pre1
        ? `${nft}${decrypter.address}11155111${sent.nonce}`
        : `${decrypter.address}${sent.nonce}decryptDDO`;
      const hash = hexToBytes(keccak256(stringToBytes(message)));
      const recovered = await recoverMessageAddress({
        message: { raw: pre1 ? hash : hash.subarray(hash.findIndex((byte) => byte !== 0)) },
        signature: sent.signature as `0x${string}`,
      });
      assert.equal(recovered, decrypter.address);
      // A 400 for another reason than the signature is the node's, not an AuthError.
      const unreadable = await client.decrypt({
        signer: decrypter,
        chainId: 11155111,
        encryptedDocument: "0xdeadbeef",
      }).then(() => undefined, (e) => e);
      assert.ok(unreadable instanceof HttpError && !(unreadable instanceof AuthError));
      assert.equal(unreadable.status, 400);
      assert.match(unreadable.message, /Cannot decrypt the document/);
      // Refused locally: no document, no chain.
      const before = sandbox.requestCount;
      await assert.rejects(
        () => client.decrypt({ signer: decrypter, chainId: 11155111 }),
        /give the encryptedDocument or its transactionId/,
      );
      await assert.rejects(
        () => client.decrypt({ signer: decrypter, chainId: 0, encryptedDocument: sealed }),
        /is not a chain id/,
      );
      assert.equal(sandbox.requestCount, before);
    } finally {
      await sandbox.close();
    }
  });
}

Deno.test("empty data is refused locally; a nonce mismatch is retried once", async () => {
  const sandbox = startOceanSandbox({ count: 60 });
  try {
    const node = new OceanNode(sandbox.url, quiet);
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const before = sandbox.requestCount;
    await assert.rejects(node.encrypt("", { signer }), /Cannot encrypt: the data is empty/);
    await assert.rejects(node.encrypt(new Uint8Array(), { signer }), TidepoolError);
    assert.equal(sandbox.requestCount, before, "nothing was sent");
    sandbox.nonces.mismatchNext = true;
    const sealed = await node.encrypt({ a: 1 }, { signer });
    assert.match(sealed, /^0x/);
    const encrypts = sandbox.compute!.requests.filter((r) => r.path === "/api/services/encrypt");
    assert.equal(encrypts.length, 2, "one refused, one accepted");
  } finally {
    await sandbox.close();
  }
});

Deno.test("validateDdo: a check, a signed check, and errors as data", async () => {
  const sandbox = startOceanSandbox({ count: 60 });
  try {
    const node = new OceanNode(sandbox.url, quiet);
    const ddo = sandbox.ddos[0];
    assert.deepEqual(await node.validateDdo(ddo), { valid: true });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const signed = await node.validateDdo(ddo, { signer });
    assert.equal(signed.valid, true);
    const { hash, signature } =
      (signed as { signature: { hash: `0x${string}`; signature: `0x${string}` } })
        .signature;
    const recovered = await recoverMessageAddress({ message: { raw: hash }, signature });
    assert.equal(recovered, SANDBOX_NODE_ADDRESS, "signed by the node");
    const broken = { ...ddo, metadata: { ...ddo.metadata, type: "spreadsheet" }, services: [] };
    const verdict = await node.validateDdo(broken);
    assert.equal(verdict.valid, false);
    const errors = (verdict as { errors: string[] }).errors.join(" | ");
    assert.match(errors, /metadata\.type must be dataset or algorithm/);
    assert.match(errors, /services must list at least one service/);
  } finally {
    await sandbox.close();
  }
});
