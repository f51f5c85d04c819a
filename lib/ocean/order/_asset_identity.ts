/**
 * What ties a DID to the chain, checked before an order is planned: the DDO
 * the node served is the DID's (its `id`), it names the chain the user
 * orders on, and the DID is the one Ocean derives from its data NFT and
 * that chain (`did:op:` and the SHA-256 of the NFT's checksummed address
 * followed by the chain id in decimal; docs/ASSUMPTIONS.md says how this was
 * checked against real DDOs). The NFT is then the user's own fact, and the
 * plan checks on chain that the datatoken paid for is one that NFT deployed.
 * Computed without viem, which loads with the first quote.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { checksumAddress } from "../_address.ts";
import type { Ddo } from "../ddo.ts";
import type { ChainHex } from "./_order_types.ts";

/**
 * The DID Ocean derives from a data NFT on a chain.
 *
 * @param nftAddress The data NFT.
 * @param chainId The chain id.
 * @param method The DID method: `op`, or `ope` for DDO 5.0.0.
 * @returns The DID.
 */
export async function oceanDid(
  nftAddress: string,
  chainId: number,
  method = "op",
): Promise<string> {
  const text = new TextEncoder().encode(checksumAddress(nftAddress) + String(chainId));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  return `did:${method}:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Refuses a DDO that is not the DID's on the user's chain, before anything
 * is planned or sent; returns the data NFT the DID names.
 *
 * @param ddo The DDO as the node served it (read live).
 * @param did The DID the user named.
 * @param chainId The chain the user orders on.
 * @returns The DID's data NFT, checksummed.
 */
export async function assetNft(ddo: Ddo, did: string, chainId: number): Promise<ChainHex> {
  refuseOtherAsset(ddo, did);
  if (ddo.chainId !== chainId) {
    throw refuse(
      did,
      `the asset is on chain ${short(ddo.chainId)}, the order on chain ${chainId}`,
      `chainId ${short(ddo.chainId)}`,
    );
  }
  if (typeof ddo.nftAddress !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(ddo.nftAddress)) {
    throw refuse(did, "its description names no data NFT", `nftAddress ${short(ddo.nftAddress)}`);
  }
  const method = /^did:([a-z0-9]+):/.exec(did)?.[1] ?? "op";
  const derived = await oceanDid(ddo.nftAddress, chainId, method);
  if (derived !== did) {
    throw refuse(
      did,
      `its description names data NFT ${ddo.nftAddress}, whose DID on chain ${chainId} is ${derived}`,
      `nftAddress ${ddo.nftAddress}`,
    );
  }
  return checksumAddress(ddo.nftAddress) as ChainHex;
}

/**
 * Refuses a DDO whose `id` is not the DID asked for (the node served another
 * asset's description), before anything else of it is read.
 *
 * @param ddo The DDO as the node served it.
 * @param did The DID the user named.
 */
export function refuseOtherAsset(ddo: Ddo, did: string): void {
  if (ddo.id !== did) {
    throw refuse(did, "the node served the description of another asset", `id ${short(ddo.id)}`);
  }
}

/** The refusal of a description that is not the DID's on the user's chain. */
function refuse(did: string, what: string, said: string): TidepoolError {
  return new TidepoolError(`Cannot order ${did}: ${what}`, {
    details: said,
    detailsLabel: "Node sent",
    hint:
      "Nothing was sent. The node's description of the asset is not the DID's on this chain; check chainId, or order through a node that serves the asset",
  });
}

/** A value a node sent, short and printable. */
function short(value: unknown): string {
  return JSON.stringify(value ?? null)?.slice(0, 80) ?? String(value);
}
