/**
 * Node information, DDO, indexing state and nonce endpoints of the sandbox
 * node, with the statuses and bodies of spec section 7.
 *
 * @module
 */

import { sentForm } from "./_credential_form.ts";
import { json, type OceanState, text } from "./_state.ts";

const DID = /^did:[a-z0-9]+:[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The sandbox node's `nodeId`: how a client tells the sandbox from a real node. */
export const SANDBOX_NODE_ID = "16Uiu2HAmSandboxTidepoolNodeQm1xVvXbKpLzR8pTe3N4";

/** `GET /`. */
export function handleInfo(state: OceanState): Response {
  // A compressed secp256k1 public key as the node sends it: index to byte.
  const key: Record<string, number> = { 0: 2 };
  for (let i = 1; i < 33; i++) key[i] = (i * 37 + 11) % 256;
  return json({
    nodeId: SANDBOX_NODE_ID,
    chainIds: ["11155111"],
    providerAddress: "0x4C84a36fCDb7Bc750294A7f3B5ad5CA8F74C4A52",
    nodePublicKey: key,
    ...(state.serviceEndpoints ? { serviceEndpoints: state.serviceEndpoints } : {}),
    software: "Ocean-Node",
    version: "4.2.0",
    ...state.extraFields,
  });
}

/** `GET /api/aquarius/assets/ddo/{did}`: 400 for a malformed DID, 404 `DDO not found`. */
export function handleDdo(did: string, state: OceanState): Response {
  if (!DID.test(did)) return text(`Invalid DID: ${did}`, 400);
  const entry = state.entries.get(did);
  if (!entry || !entry.valid || entry.pendingPolls > 0) return text("DDO not found", 404);
  return json({ ...sentForm(entry.ddo), ...state.extraFields });
}

/** `GET /api/aquarius/state/ddo`: one of did (prefix), nft, txId; empty 404 when never seen. */
export function handleState(url: URL, state: OceanState): Response {
  const did = url.searchParams.get("did");
  const nft = url.searchParams.get("nft")?.toLowerCase();
  const txId = url.searchParams.get("txId");
  if (!did && !nft && !txId) {
    return text("Missing or invalid parameter: one of did, txId, nft is required", 400);
  }
  for (const [id, entry] of state.entries) {
    const match = did
      ? id.startsWith(did)
      : nft
      ? entry.ddo.nftAddress.toLowerCase() === nft
      : entry.txId === txId;
    if (!match) continue;
    if (entry.pendingPolls > 0) {
      entry.pendingPolls--;
      if (entry.pendingPolls === 0 && entry.valid) state.indexed.push(entry.ddo);
      return new Response(null, { status: 404 });
    }
    return json({
      chainId: entry.ddo.chainId,
      did: id,
      id,
      nft: entry.ddo.nftAddress,
      txId: entry.txId,
      valid: entry.valid,
      error: entry.error,
    });
  }
  return new Response(null, { status: 404 });
}

/** `GET /api/services/nonce?userAddress=`. */
export function handleNonce(url: URL, state: OceanState): Response {
  const address = url.searchParams.get("userAddress");
  if (!address || !ADDRESS.test(address)) {
    return text("Missing or invalid userAddress parameter", 400);
  }
  return json({ nonce: state.nonces.get(address) });
}
