/**
 * A signed request whose hash starts with a zero byte (about one in 256):
 * ocean-node verifies the signature over the hash read as a number's bytes
 * (ethers' `toBeArray`, as ocean.js signs), so the zero byte is not signed.
 * tidepool signs that form; the sandbox accepts the node's two forms and
 * refuses the 32 bytes signed whole, as ocean-node does.
 */

import assert from "node:assert/strict";
import { hexToBytes, keccak256, recoverMessageAddress, stringToBytes } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { NonceStore, SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

const account = privateKeyToAccount(SANDBOX_WALLET_KEY);

/** The first nonce above `from` whose request hash for the command starts with `zeros` zero bytes. */
function nonceWithLeadingZeros(command: string, from: bigint, zeros = 1): string {
  for (let nonce = from + 1n;; nonce++) {
    const hash = hexToBytes(keccak256(stringToBytes(`${account.address}${nonce}${command}`)));
    if (hash.subarray(0, zeros).every((byte) => byte === 0)) return nonce.toString();
  }
}

const hashOf = (nonce: string, command: string) =>
  hexToBytes(keccak256(stringToBytes(`${account.address}${nonce}${command}`)));

Deno.test("a request hash with leading zero bytes is signed without them, as ocean-node reads it", async () => {
  const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
  for (
    const [command, zeros] of [["getComputeStatus", 1], ["download", 1], ["encrypt", 2]] as const
  ) {
    const nonce = nonceWithLeadingZeros(command, BigInt(Date.now()), zeros);
    const hash = hashOf(nonce, command);
    assert.equal(hash[0], 0);
    const { signature } = await signRequest(signer, command, { nonce });
    const asNumberBytes = await recoverMessageAddress({
      message: { raw: hash.subarray(zeros) },
      signature,
    });
    assert.equal(asNumberBytes, account.address, `${command}: the node's form recovers`);
    const whole = await recoverMessageAddress({ message: { raw: hash }, signature });
    assert.notEqual(whole, account.address, `${command}: the 32 bytes were not what was signed`);
  }
});

Deno.test("the sandbox takes ocean-node's two forms and refuses the 32 bytes signed whole", async () => {
  const command = "createAuthToken";
  const store = new NonceStore();
  const nonce = nonceWithLeadingZeros(command, 1000n);
  const hash = hashOf(nonce, command);
  const check = async (signature: `0x${string}`, at: string) =>
    (await store.verify({ consumerAddress: account.address, nonce: at, signature }, command)).ok;

  const whole = await account.signMessage({ message: { raw: hash } });
  assert.equal(await check(whole, nonce), false, "32 bytes with a leading zero: refused");
  const asNumber = await account.signMessage({ message: { raw: hash.subarray(1) } });
  assert.equal(await check(asNumber, nonce), true, "the number's bytes: accepted");
  // The hash as text (ethers' verifyMessage on the hex string), at the next such nonce.
  const next = nonceWithLeadingZeros(command, BigInt(nonce));
  const asText = await account.signMessage({
    message: keccak256(stringToBytes(`${account.address}${next}${command}`)),
  });
  assert.equal(await check(asText, next), true, "the hash as text: accepted");
  // A hash without a leading zero: the 32 bytes are the number's bytes.
  let plain = BigInt(next) + 1n;
  while (hashOf(plain.toString(), command)[0] === 0) plain++;
  const signed = await account.signMessage({ message: { raw: hashOf(plain.toString(), command) } });
  assert.equal(await check(signed, plain.toString()), true);
});

Deno.test("a signed call whose nonce hashes to a leading zero is accepted at the first request", async () => {
  const sandbox = startOceanSandbox({ count: 5 });
  try {
    const command = "createAuthToken";
    // tidepool takes the stored nonce + 1 when it is above the clock: store the one before.
    const nonce = nonceWithLeadingZeros(command, BigInt(Date.now()) + 10_000_000n);
    sandbox.setNonce(account.address, (BigInt(nonce) - 1n).toString());
    const sent: Record<string, unknown>[] = [];
    const node = new OceanNode(sandbox.url, {
      progress: false,
      warn: () => {},
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname === "/api/services/auth/token") {
          sent.push(await request.clone().json());
        }
        return fetch(request);
      },
    });
    const token = await node.createAuthToken({ signer: signerFromPrivateKey(SANDBOX_WALLET_KEY) });
    assert.ok(token);
    assert.equal(sent.length, 1, "accepted without a second signature");
    assert.equal(sent[0].nonce, nonce);
    assert.equal(sandbox.nonces.get(account.address), nonce);
  } finally {
    await sandbox.close();
  }
});
