/**
 * The sandbox node's side of ocean-node's Escrow (paid compute, C2D v2):
 * at a job's start it locks the job's price in the payer's escrow, with the
 * checks ocean-node makes first (enough funds, exactly one authorization of
 * the node, the lock within its amount, its seconds and its count), and at
 * the job's end it claims what the job cost (`claimLockAndWithdraw`). The
 * Escrow's job id is the SHA-256 of the node's job id, as ocean-node hashes
 * it.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { parseAbi, stringToHex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { EscrowHooks } from "../ocean/compute/_context.ts";
import { chainClients } from "./_chain_clients.ts";
import type { ChainAddress, OceanContracts } from "./deploy_ocean_contracts.ts";
import type { AnvilChain } from "./start_anvil.ts";

const ESCROW = parseAbi([
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function getAuthorizations(address token, address payer, address payee) view returns ((address payee, uint256 maxLockedAmount, uint256 currentLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts, uint256 currentLocks)[])",
  "function createLock(uint256 jobId, address token, address payer, uint256 amount, uint256 expiry)",
  "function claimLockAndWithdraw(uint256 jobId, address token, address payer, uint256 amount, bytes proof)",
]);

/** Seconds a node keeps to claim after the job's longest run (ocean-node's default `ESCROW_CLAIM_TIMEOUT`). */
export const CLAIM_TIMEOUT_SECONDS = 600;

/**
 * The Escrow's id of a node job: the SHA-256 of its id string, as a number.
 *
 * @param jobId The node's job id.
 * @returns The uint256 the Escrow keys the lock by.
 * @example
 * ```ts
 * console.log(escrowJobId("abc") > 0n); // true
 * ```
 */
export function escrowJobId(jobId: string): bigint {
  return BigInt(`0x${createHash("sha256").update(jobId).digest("hex")}`);
}

/**
 * The node's escrow actions on a chain, signed with the node's key.
 *
 * @param chain The chain.
 * @param contracts The deployed contracts (the Escrow among them).
 * @param node The node's account (it needs gas).
 * @returns The hooks the paid compute routes call.
 * @example
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const hooks = escrowPayee(chain, contracts, privateKeyToAccount(key));
 * ```
 */
export function escrowPayee(
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
  contracts: OceanContracts,
  node: PrivateKeyAccount,
): EscrowHooks {
  const { publicClient, walletClient } = chainClients(chain);
  const escrow = contracts.escrow;
  const send = async (functionName: "createLock" | "claimLockAndWithdraw", args: unknown[]) => {
    const hash = await walletClient.writeContract({
      address: escrow,
      abi: ESCROW,
      functionName,
      args,
      account: node,
      chain: walletClient.chain,
    } as never);
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted (${hash})`);
    return hash;
  };
  const createLock = async (
    jobId: string,
    payer: string,
    token: string,
    amount: bigint,
    seconds: number,
  ) => {
    try {
      return { tx: await send("createLock", [escrowJobId(jobId), token, payer, amount, seconds]) };
    } catch (error) {
      return { error: (error as { shortMessage?: string }).shortMessage ?? String(error) };
    }
  };
  return {
    escrowAddress: escrow,
    payee: node.address,
    claimTimeoutSeconds: CLAIM_TIMEOUT_SECONDS,
    async lock({ jobId, payer, token, amount, seconds, checked = true }) {
      if (!checked) return await createLock(jobId, payer, token, amount, seconds);
      const args = [token as ChainAddress, payer as ChainAddress] as const;
      const funds = await publicClient.readContract({
        address: escrow,
        abi: ESCROW,
        functionName: "getUserFunds",
        args: [args[1], args[0]],
      });
      if (funds.available < amount) return { error: `User ${payer} does not have enough funds` };
      const auths = await publicClient.readContract({
        address: escrow,
        abi: ESCROW,
        functionName: "getAuthorizations",
        args: [args[0], args[1], node.address],
      });
      if (auths.length !== 1) {
        return {
          error:
            `No escrow auths found for: chain=${chain.chainId}, token=${token}, payer=${payer}, nodeAddress=${node.address}. Found ${auths.length} authorizations.`,
        };
      }
      const [auth] = auths;
      if (auth.currentLockedAmount + amount > auth.maxLockedAmount) {
        return { error: "No valid escrow auths found(will go over limit)" };
      }
      if (auth.maxLockSeconds < BigInt(seconds)) {
        return { error: "No valid escrow auths found(maxLockSeconds too low)" };
      }
      if (auth.currentLocks + 1n > auth.maxLockCounts) {
        return { error: "No valid escrow auths found(too many active locks)" };
      }
      return await createLock(jobId, payer, token, amount, seconds);
    },
    async claim({ jobId, payer, token, amount, proof }) {
      return await send("claimLockAndWithdraw", [
        escrowJobId(jobId),
        token,
        payer,
        amount,
        stringToHex(proof),
      ]);
    },
  };
}
