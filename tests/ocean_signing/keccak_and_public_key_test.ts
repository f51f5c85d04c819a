/**
 * tidepool's own Keccak-256 and secp256k1 public keys (written so that
 * importing tidepool loads no hashing or curve package) against @noble, an
 * independent implementation, and viem's addresses: every length across
 * the block boundaries, and keys at both ends of the range and between.
 */

import assert from "node:assert/strict";
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { privateKeyToAccount } from "viem/accounts";
import { keccak256 } from "../../lib/ocean/_keccak.ts";
import { publicKeyBytes } from "../../lib/ocean/_public_key.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Deterministic bytes: a Keccak chain from a seed (so a failure names its input). */
function bytesFor(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let block = keccak_256(new TextEncoder().encode(`seed ${seed}`));
  for (let i = 0; i < length; i += 32) {
    out.set(block.subarray(0, Math.min(32, length - i)), i);
    block = keccak_256(block);
  }
  return out;
}

Deno.test("keccak256 equals @noble's for every length from 0 to 700 bytes", () => {
  assert.equal(
    hex(keccak256(new Uint8Array(0))),
    "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
  );
  for (let length = 0; length <= 700; length++) {
    const data = bytesFor(length, length);
    assert.equal(hex(keccak256(data)), hex(keccak_256(data)), `length ${length}`);
  }
});

Deno.test("publicKeyBytes equals @noble's, and signers' addresses equal viem's", () => {
  const order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const keys = [1n, 2n, 3n, order - 1n, order - 2n, (order - 1n) / 2n, (order + 1n) / 2n]
    .map((k) => k.toString(16).padStart(64, "0"));
  for (let seed = 0; seed < 60; seed++) keys.push(hex(bytesFor(seed, 32)));
  for (const key of keys) {
    if (BigInt(`0x${key}`) >= order || BigInt(`0x${key}`) === 0n) continue;
    assert.equal(hex(publicKeyBytes(key)), hex(secp256k1.getPublicKey(key, false).slice(1)), key);
  }
  for (const key of keys.slice(0, 20)) {
    assert.equal(signerFromPrivateKey(key).address, privateKeyToAccount(`0x${key}`).address, key);
  }
});

Deno.test("publicKeyBytes refuses 0 and the group order", () => {
  assert.throws(() => publicKeyBytes("0".repeat(64)), RangeError);
  assert.throws(
    () => publicKeyBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"),
    RangeError,
  );
});

Deno.test("a private key outside the curve's range is refused without showing it", () => {
  const key = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
  assert.throws(() => signerFromPrivateKey(key), (error: Error) => {
    assert.match(error.message, /outside the secp256k1 range/);
    assert.ok(!error.message.includes(key));
    return true;
  });
});
