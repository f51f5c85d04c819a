/**
 * The Escrow contract a paid compute job may pay into: the one the caller
 * names, or the one ocean-contracts lists for the chain. Never the node's
 * word alone: a node that names its own contract as `escrowAddress` would
 * take the deposit with no job and nothing to withdraw.
 *
 * @module
 */

import type { ChainHex } from "../order/_order_types.ts";
import { TidepoolError } from "../../errors/errors.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The Escrow trusted on a chain, or undefined when none is known there.
 *
 * @param chainId The chain of the payment.
 * @param given The caller's `escrowAddress`, when given.
 * @returns The address.
 */
export async function trustedEscrow(
  chainId: number,
  given: string | undefined,
): Promise<ChainHex | undefined> {
  if (given !== undefined) {
    if (typeof given !== "string" || !ADDRESS.test(given)) {
      throw new TidepoolError(`Invalid escrowAddress: ${String(given).slice(0, 60)}`, {
        hint: "Give the Escrow contract's address on the chain, 0x and 40 hex digits",
      });
    }
    return given as ChainHex;
  }
  // Loaded with the first paid quote only: importing tidepool should not pay for it.
  const { default: networks } = await import(
    "@oceanprotocol/contracts/addresses/address.json",
    { with: { type: "json" } }
  );
  for (const network of Object.values(networks as Record<string, Record<string, unknown>>)) {
    const escrow = network.Escrow;
    if (network.chainId === chainId && typeof escrow === "string" && ADDRESS.test(escrow)) {
      return escrow as ChainHex;
    }
  }
  return undefined;
}
