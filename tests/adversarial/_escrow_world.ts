/**
 * The money world with a priced environment (cpu 0.5 and ram 0.25 Ocean a
 * minute, free datatokens), and the Escrow read back with viem through the
 * contract's own view functions, independently of what tidepool reports:
 * the payer's funds, the node's authorization, its locks and the wallet's
 * allowance to the Escrow.
 */

import { concat, erc20Abi, type Hex, parseAbi, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { withdrawEscrow } from "../../lib/ocean/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { signerFromPrivateKey } from "../../mod.ts";
import { type MoneyWorld, moneyWorld } from "./_money_world.ts";

const ESCROW = parseAbi([
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function getAuthorizations(address token, address payer, address payee) view returns ((address payee, uint256 maxLockedAmount, uint256 currentLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts, uint256 currentLocks)[])",
  "function getLocks(address token, address payer, address payee) view returns ((uint256 jobId, address payer, uint256 amount, uint256 expiry, address token)[])",
]);

/** One minute of one cpu and 1 GiB of ram. */
export const PRICED_JOB = {
  maxJobDuration: 60,
  resources: [{ id: "cpu", amount: 1 }, { id: "ram", amount: 1 }],
};

/**
 * A contract that is not the Escrow (72 bytes of runtime code):
 * `deposit(token, amount)` calls token.transferFrom(caller, this, amount),
 * any other call answers 192 zero bytes (no funds, no authorization).
 */
export const THIEF_RUNTIME: Hex = "0x" +
  "600035" + "60e01c" + "6347e7ef24" + "14" + "601457" + "60c0" + "6000" + "f3" + // dispatch
  "5b" + "6323b872dd" + "60e01b" + "600052" + "33600452" + "30602452" + "602435604452" +
  "6020" + "6000" + "6064" + "6000" + "6000" + "600435" + "5a" + "f1" + // transferFrom
  "15" + "604257" + "00" + "5b" + "60006000fd" as Hex;

/** Deploys a contract of {@link THIEF_RUNTIME}, as a node would deploy its own "escrow". */
export async function deployThief(world: MoneyWorld): Promise<Hex> {
  const { walletClient, publicClient } = chainClients(world.chain);
  const [deployer] = await walletClient.requestAddresses();
  const length = (THIEF_RUNTIME.length - 2) / 2;
  // PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime.
  const init = concat([
    `0x60${toHex(length).slice(2).padStart(2, "0")}80600b6000396000f3`,
    THIEF_RUNTIME,
  ]);
  const hash = await walletClient.sendTransaction({
    account: deployer,
    data: init,
    chain: walletClient.chain,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("the thief was not deployed");
  return receipt.contractAddress;
}

/** The priced world and its escrow reads. */
export interface EscrowWorld extends MoneyWorld {
  /** The payer's funds in the Escrow, in Ocean base units. */
  funds(payer: string): Promise<{ available: bigint; locked: bigint }>;
  /** The node's authorization by the payer, as [maxLocked, currentLocked, seconds, counts, locks], or null. */
  authorization(payer: string): Promise<bigint[] | null>;
  /** The locks the node holds of the payer. */
  locks(payer: string): Promise<{ jobId: bigint; amount: bigint }[]>;
  /** What the payer allows the Escrow to take of Ocean. */
  allowance(payer: string): Promise<bigint>;
  /** Sends the payer's own transaction with viem, as ocean.js would (approve on Ocean, the rest on the Escrow). */
  payerSends(key: `0x${string}`, functionName: PayerCall, args: readonly unknown[]): Promise<void>;
  /** Takes back all the payer's free funds with tidepool's `withdrawEscrow`. */
  withdrawAll(key: `0x${string}`): Promise<{ amount: string }>;
}

/** What a payer sends itself in these tests. */
export type PayerCall = "approve" | "deposit" | "authorize" | "cancelExpiredLock";

const PAYER_CALLS = parseAbi([
  "function approve(address spender, uint256 amount)",
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
  "function cancelExpiredLock(uint256 jobId, address token, address payer, address payee)",
]);

/** Starts the priced world. */
export async function escrowWorld(): Promise<EscrowWorld> {
  const world = await moneyWorld({
    extra: 0,
    pricing: () => ({ type: "free" }),
    resourcePrices: { cpu: 0.5, ram: 0.25 },
  });
  const { reader, chain } = world;
  const escrow = chain.contracts.escrow;
  const token = chain.contracts.oceanToken;
  const payee = chain.nodeAddress as `0x${string}`;
  const at = (a: string) => a as `0x${string}`;
  return {
    ...world,
    async funds(payer) {
      const held = await reader.readContract({
        address: escrow,
        abi: ESCROW,
        functionName: "getUserFunds",
        args: [at(payer), token],
      });
      return { available: held.available, locked: held.locked };
    },
    async authorization(payer) {
      const auths = await reader.readContract({
        address: escrow,
        abi: ESCROW,
        functionName: "getAuthorizations",
        args: [token, at(payer), payee],
      });
      const [a] = auths;
      return a
        ? [
          a.maxLockedAmount,
          a.currentLockedAmount,
          a.maxLockSeconds,
          a.maxLockCounts,
          a.currentLocks,
        ]
        : null;
    },
    async locks(payer) {
      const all = await reader.readContract({
        address: escrow,
        abi: ESCROW,
        functionName: "getLocks",
        args: [token, at(payer), payee],
      });
      // 2.6.0's filter ORs its conditions: keep the payer's own locks.
      return all.filter((l) => l.payer.toLowerCase() === payer.toLowerCase())
        .map((l) => ({ jobId: l.jobId, amount: l.amount }));
    },
    async payerSends(key, functionName, args) {
      const { walletClient, publicClient } = chainClients(chain);
      const hash = await walletClient.writeContract({
        address: functionName === "approve" ? token : escrow,
        abi: PAYER_CALLS,
        functionName,
        args,
        account: privateKeyToAccount(key),
        chain: walletClient.chain,
      } as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    },
    withdrawAll: (key) =>
      withdrawEscrow({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        escrow,
        token,
        account: privateKeyToAccount(key),
      }),
    allowance: (payer) =>
      reader.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [at(payer), escrow],
      }),
  };
}

/** A funded payer and the request of the priced job, capped at 1 Ocean. */
export async function payer(world: EscrowWorld) {
  const key = generatePrivateKey();
  const signer = signerFromPrivateKey(key);
  await world.chain.fund(signer.address, "10");
  const request = {
    signer,
    environment: world.example.environment,
    algorithm: world.example.algorithm,
    datasets: [world.example.dataset],
    rpcUrl: world.chain.rpcUrl,
    escrowAddress: world.chain.contracts.escrow as string,
    ...PRICED_JOB,
    maxPrice: { [world.chain.contracts.oceanToken.toLowerCase()]: "1" } as Record<string, string>,
  };
  return { key, signer, address: signer.address, request };
}
