/**
 * The provider fee a node hands out in `initialize`, signed the way
 * ocean-node's fees handler signs it, so `startOrder` accepts it on chain.
 *
 * @module
 */

import { encodePacked, keccak256, parseSignature, toHex } from "viem";
import type { ChainAddress } from "./deploy_ocean_contracts.ts";

/** A signed provider fee, as `initialize` returns it and `startOrder` takes it. */
export interface SignedProviderFee {
  /** Address the fee goes to (the node's). */
  providerFeeAddress: ChainAddress;
  /** Token of the fee. */
  providerFeeToken: ChainAddress;
  /** Amount in base units, as a decimal string. */
  providerFeeAmount: string;
  /** What the node commits to (JSON of environment, timestamp, datatoken, id), hex. */
  providerData: `0x${string}`;
  /** Unix seconds after which the fee is refused; 0 means forever. */
  validUntil: number;
  /** Signature part. */
  v: number;
  /** Signature part. */
  r: `0x${string}`;
  /** Signature part. */
  s: `0x${string}`;
}

/** What a node signs a fee with: viem-style `signMessage` and an address. */
export interface FeeSigner {
  /** The node's address. */
  address: ChainAddress;
  /** Signs an EIP-191 personal message. */
  signMessage(args: { message: { raw: `0x${string}` } }): Promise<`0x${string}`>;
}

/**
 * Signs a provider fee: a personal-message signature over the keccak of the
 * packed provider data, fee address, fee token, amount and `validUntil`
 * (what ERC20Template's `_checkProviderFee` recovers).
 *
 * @param signer The node's key.
 * @param fee Token, amount, validity and what the fee is for.
 * @returns The fee with its signature parts.
 * @example Sign a free fee valid for ten minutes
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const fee = await signProviderFee(nodeAccount, {
 *   providerFeeToken: contracts.oceanToken, providerFeeAmount: 0n,
 *   validUntil: Math.floor(Date.now() / 1000) + 600, data: { dt: datatoken, id: "svc" },
 * });
 * ```
 */
export async function signProviderFee(
  signer: FeeSigner,
  fee: {
    providerFeeToken: ChainAddress;
    providerFeeAmount: bigint;
    validUntil: number;
    data: Record<string, unknown>;
  },
): Promise<SignedProviderFee> {
  const providerData = toHex(JSON.stringify(fee.data));
  const message = keccak256(
    encodePacked(
      ["bytes", "address", "address", "uint256", "uint256"],
      [
        providerData,
        signer.address,
        fee.providerFeeToken,
        fee.providerFeeAmount,
        BigInt(fee.validUntil),
      ],
    ),
  );
  const signature = await signer.signMessage({ message: { raw: message } });
  const { r, s, v, yParity } = parseSignature(signature);
  return {
    providerFeeAddress: signer.address,
    providerFeeToken: fee.providerFeeToken,
    providerFeeAmount: fee.providerFeeAmount.toString(),
    providerData,
    validUntil: fee.validUntil,
    v: Number(v ?? BigInt(27 + yParity)),
    r,
    s,
  };
}
