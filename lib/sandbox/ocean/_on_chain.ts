/**
 * An asset of the sandbox node moved onto a chain, as publishing it there
 * would describe it: the DDO names the chain, the data NFT deployed there,
 * each service's datatoken, and the DID Ocean derives from the NFT and the
 * chain (`did:op:` and the SHA-256 of the NFT's checksummed address followed
 * by the chain id in decimal; checked against recorded real DDOs, see
 * docs/ASSUMPTIONS.md). Datasets that trust the asset as an algorithm name
 * its new DID.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { getAddress } from "viem";
import type { Ddo } from "../../ocean/ddo.ts";
import type { OceanState } from "./_state.ts";

/** Where an asset was published: the chain, its data NFT, and each service's datatoken. */
export interface AssetOnChain {
  /** The chain id. */
  chainId: number;
  /** The data NFT. */
  nftAddress: string;
  /** Datatoken per service id. */
  datatokens: ReadonlyMap<string, string>;
}

/**
 * The DID of an asset as Ocean derives it.
 *
 * @param nftAddress The data NFT (any case).
 * @param chainId The chain id.
 * @param method The DID method (`op`, or `ope` for 5.0.0 DDOs).
 * @returns The DID.
 */
export function oceanDid(nftAddress: string, chainId: number, method = "op"): string {
  const hash = createHash("sha256").update(getAddress(nftAddress) + String(chainId));
  return `did:${method}:${hash.digest("hex")}`;
}

/**
 * Rewrites an asset the node holds as published on a chain, in place (a DDO
 * object read before shows the new DID), and re-keys it in the node's index.
 *
 * @param state The node's state.
 * @param did The asset's DID now.
 * @param onChain Where it was published.
 * @returns The asset's DID on that chain.
 */
export function moveAssetOnChain(state: OceanState, did: string, onChain: AssetOnChain): string {
  const entry = state.entries.get(did);
  if (!entry) throw new Error(`The sandbox node holds no asset ${did}`);
  const ddo = entry.ddo;
  const method = /^did:([a-z0-9]+):/.exec(did)?.[1] ?? "op";
  const nftAddress = getAddress(onChain.nftAddress);
  const moved = oceanDid(nftAddress, onChain.chainId, method);
  // A 5.0.0 DDO holds its asset twice: at the top level and under credentialSubject.
  const subject = (ddo as { credentialSubject?: Record<string, unknown> }).credentialSubject;
  for (const holder of [ddo as unknown as Record<string, unknown>, subject]) {
    if (!holder) continue;
    holder.id = moved;
    holder.chainId = onChain.chainId;
    holder.nftAddress = nftAddress;
  }
  for (const service of ddo.services) {
    const datatoken = onChain.datatokens.get(service.id);
    if (datatoken) service.datatokenAddress = datatoken;
  }
  for (const token of ddo.datatokens ?? []) {
    const datatoken = token.serviceId ? onChain.datatokens.get(token.serviceId) : undefined;
    if (datatoken) token.address = datatoken;
  }
  const indexed = ddo.indexedMetadata;
  if (indexed?.nft) indexed.nft.address = nftAddress;
  if (indexed?.event) indexed.event.contract = nftAddress;
  state.entries.delete(did);
  state.entries.set(moved, entry);
  for (const other of state.entries.values()) renameTrusted(other.ddo, did, moved);
  return moved;
}

/** A dataset's trust in an algorithm follows the algorithm to its new DID. */
function renameTrusted(ddo: Ddo, from: string, to: string): void {
  for (const service of ddo.services ?? []) {
    for (const trusted of service.compute?.publisherTrustedAlgorithms ?? []) {
      const entry = trusted as { did?: string; filesChecksum?: string };
      if (entry.did !== from) continue;
      entry.did = to;
      // The seed's convention (assets_seed.ts): the checksum of the algorithm's files names its DID.
      entry.filesChecksum = createHash("sha256").update(`${to}/files`).digest("hex");
    }
  }
}
