import assert from "node:assert/strict";
import { getAddress } from "viem";
import { checksumAddress, consumerAddress } from "../../lib/ocean/_address.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";

Deno.test("checksumAddress gives viem's EIP-55 form for any spelling, and refuses what is not an address", () => {
  for (let i = 1; i <= 20; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(20));
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    const expected = getAddress(`0x${hex}`);
    assert.equal(checksumAddress(`0x${hex}`), expected);
    assert.equal(checksumAddress(`0x${hex.toUpperCase()}`), expected);
  }
  assert.throws(() => checksumAddress("0x123", "owner"), /Invalid owner: 0x123/);
  assert.throws(() => checksumAddress(42), /Invalid address: 42/);
  const signer = signerFromPrivateKey("0x" + "11".repeat(32));
  assert.equal(consumerAddress(signer.address.toLowerCase()), signer.address);
  assert.equal(consumerAddress(signer), signer.address);
});
