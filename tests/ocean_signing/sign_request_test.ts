import assert from "node:assert/strict";
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { nextNonce } from "../../lib/ocean/_nonces.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { signerFromEnv, signerFromPrivateKey } from "../../lib/ocean/signer.ts";

const KEY = "0x" + "4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d";
const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * EIP-191 over the hash as ocean-node reads it (a number's bytes: no leading
 * zero bytes), computed here from the primitives, not through viem.
 */
function independentSignature(privateKey: string, message: string): string {
  const whole = keccak_256(utf8(message));
  const hash = whole.subarray(Math.max(0, whole.findIndex((byte) => byte !== 0)));
  const prefix = utf8(`\x19Ethereum Signed Message:\n${hash.length}`);
  const digest = keccak_256(new Uint8Array([...prefix, ...hash]));
  const signature = secp256k1.sign(digest, privateKey.slice(2));
  const r = signature.r.toString(16).padStart(64, "0");
  const s = signature.s.toString(16).padStart(64, "0");
  return `0x${r}${s}${(27 + signature.recovery).toString(16)}`;
}

function independentAddress(privateKey: string): string {
  const publicKey = secp256k1.getPublicKey(privateKey.slice(2), false);
  return `0x${hex(keccak_256(publicKey.slice(1)).slice(-20))}`;
}

Deno.test("signRequest signs address + nonce + command as EIP-191 over the keccak hash", async () => {
  const signer = signerFromPrivateKey(KEY);
  assert.equal(signer.address.toLowerCase(), independentAddress(KEY));
  assert.equal(signer.address, privateKeyToAccount(KEY as `0x${string}`).address, "EIP-55 as viem");
  const fields = await signRequest(signer, "freeStartCompute", { nonce: "1732000000000" });
  assert.equal(fields.consumerAddress, signer.address);
  assert.equal(fields.nonce, "1732000000000");
  const message = `${signer.address}1732000000000freeStartCompute`;
  assert.equal(fields.signature, independentSignature(KEY, message));
  const recovered = await recoverMessageAddress({
    message: { raw: `0x${hex(keccak_256(utf8(message)))}` },
    signature: fields.signature,
  });
  assert.equal(recovered, signer.address);
  // A nonce whose hash starts with 0x00 (the first above this one): signed without that byte.
  let nonce = 1732000000000n;
  while (keccak_256(utf8(`${signer.address}${nonce}freeStartCompute`))[0] !== 0) nonce++;
  const zeroLed = await signRequest(signer, "freeStartCompute", { nonce: `${nonce}` });
  assert.equal(
    zeroLed.signature,
    independentSignature(KEY, `${signer.address}${nonce}freeStartCompute`),
  );
});

Deno.test("the signed address is exactly the string sent", async () => {
  const signer = signerFromPrivateKey(KEY);
  const fields = await signRequest(signer, "getComputeResult", { nonce: "5" });
  // The checksummed form is signed; a lower-case message would give another signature.
  const lower = independentSignature(KEY, `${signer.address.toLowerCase()}5getComputeResult`);
  assert.notEqual(fields.signature, lower);
  assert.match(signer.address, /[A-F]/, "checksummed");
  await assert.rejects(signRequest(signer, "download", { nonce: "12a" }), /Invalid nonce/);
});

Deno.test("a signer never shows its key", () => {
  const signer = signerFromPrivateKey(KEY);
  const body = KEY.slice(2);
  for (
    const text of [
      String(signer),
      Deno.inspect(signer),
      JSON.stringify(signer),
      JSON.stringify({ signer }),
      Deno.inspect({ nested: { signer } }, { depth: 5 }),
    ]
  ) {
    assert.ok(!text.toLowerCase().includes(body), `key shown in: ${text}`);
    assert.ok(text.includes(signer.address), `address missing in: ${text}`);
  }
});

Deno.test("a malformed key names its source, never its value", () => {
  const bad = "0x" + "zz".repeat(32);
  assert.throws(() => signerFromPrivateKey(bad), (error: unknown) => {
    assert.ok(error instanceof TidepoolError);
    assert.match(error.message, /Invalid private key in the private key/);
    assert.ok(!error.message.includes("zz".repeat(32)));
    return true;
  });
  const name = "TIDEPOOL_TEST_KEY_" + crypto.randomUUID().slice(0, 8).toUpperCase();
  assert.throws(() => signerFromEnv(name), (error: Error) => {
    // The name given is never repeated: a key passed in its place would be shown.
    assert.match(error.message, /The environment variable given to signerFromEnv is not set/);
    assert.ok(!error.message.includes(name), error.message);
    return true;
  });
  const keyAsName = "ab".repeat(32);
  assert.throws(() => signerFromEnv(keyAsName), (error: Error) => {
    assert.ok(!error.message.includes(keyAsName.slice(0, 12)), error.message);
    return true;
  });
  const shortKey = "0x1234567890abcdef";
  Deno.env.set(name, shortKey);
  try {
    assert.throws(() => signerFromEnv(name), (error: unknown) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, /environment variable given to signerFromEnv/);
      assert.ok(!error.message.includes(name), error.message);
      assert.ok(!error.message.includes("1234567890abcdef"));
      return true;
    });
    Deno.env.set(name, KEY);
    assert.equal(signerFromEnv(name).address, signerFromPrivateKey(KEY).address);
  } finally {
    Deno.env.delete(name);
  }
});

Deno.test("nonces exceed the stored nonce and every nonce already used", () => {
  const address = "0x" + "ab".repeat(20);
  const now = 1_732_000_000_000;
  assert.equal(nextNonce(address, "7", now), String(now));
  assert.equal(nextNonce(address, "7", now), String(now + 1), "same millisecond: bumped");
  assert.equal(
    nextNonce(address.toUpperCase().replace("0X", "0x"), undefined, now),
    String(now + 2),
  );
  // A stored nonce ahead of the clock (a timestamp in microseconds, say).
  assert.equal(nextNonce(address, "1732000000000000", now), "1732000000000001");
  assert.equal(nextNonce(address, undefined, now), "1732000000000002");
});
