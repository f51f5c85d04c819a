import assert from "node:assert/strict";
import { recoverMessageAddress } from "viem";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { SANDBOX_NODE_ADDRESS, SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const quiet = { progress: false as const, warn: () => {} };
const DECRYPTER = "0x00000000000000000000000000000000000d3c09";
let decryptNonce = Date.now();

async function decrypt(url: string, decrypter: string, sealed: string) {
  const response = await fetch(`${url}/api/services/decrypt`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      decrypterAddress: decrypter,
      chainId: 11155111,
      nonce: String(++decryptNonce),
      signature: "0x" + "11".repeat(65),
      encryptedDocument: sealed,
    }),
  });
  return { status: response.status, text: await response.text() };
}

Deno.test("encrypt seals with the node's key; only authorized decrypters can open it", async () => {
  const sandbox = startOceanSandbox({ count: 60, compute: { authorizedDecrypters: [DECRYPTER] } });
  try {
    const node = new OceanNode(sandbox.url, quiet);
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const files = [{ type: "url", url: "https://data.example/rain.csv", method: "GET" }];
    const sealed = await node.encrypt(files, { signer });
    assert.match(sealed, /^0x[0-9a-f]+$/);
    assert.ok(!sealed.includes("rain"), "the URL is not readable in the sealed text");
    const opened = await decrypt(sandbox.url, DECRYPTER, sealed);
    assert.deepEqual([opened.status, JSON.parse(opened.text)], [200, files]);
    const byNode = await decrypt(sandbox.url, SANDBOX_NODE_ADDRESS, sealed);
    assert.equal(byNode.status, 200, "the node itself may always decrypt");
    const stranger = await decrypt(sandbox.url, "0x" + "ab".repeat(20), sealed);
    assert.deepEqual(stranger, { status: 403, text: "Decrypt DDO: Decrypter not authorized" });
    // Text and bytes are sealed as given.
    const text = await node.encrypt("成田空港", { signer });
    assert.equal((await decrypt(sandbox.url, DECRYPTER, text)).text, "成田空港");
  } finally {
    await sandbox.close();
  }
});

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
