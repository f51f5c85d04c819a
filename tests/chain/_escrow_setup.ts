/**
 * A payer with funds in the sandbox chain's Escrow, an authorization of a
 * node and a lock the node made, all sent with viem as ocean.js and
 * ocean-node send them, for the escrow tests to read back.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseAbi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { AnvilChain, OceanContracts } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";

export const ESCROW_ABI = parseAbi([
  "function factoryRouter() view returns (address)",
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
  "function createLock(uint256 jobId, address token, address payer, uint256 amount, uint256 expiry)",
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
]);

/** Funds, authorizes and locks: 10 deposited, 5 authorized for 3600 s and 2 locks, 2.5 locked by job 7. */
export async function escrowWithLock(chain: AnvilChain, contracts: OceanContracts) {
  const { publicClient, walletClient } = chainClients(chain);
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey);
  const node = privateKeyToAccount(generatePrivateKey());
  for (const account of [payer, node]) {
    await publicClient.request({
      method: "anvil_setBalance" as never,
      params: [account.address, "0x56BC75E2D63100000"] as never,
    });
  }
  const ocean = contracts.oceanToken;
  const escrow = contracts.escrow;
  type Account = typeof payer | typeof contracts.owner;
  const send = async (
    address: `0x${string}`,
    abi: typeof erc20Abi | typeof ESCROW_ABI,
    functionName: string,
    args: unknown[],
    account: Account,
  ) => {
    const hash = await walletClient.writeContract(
      { address, abi, functionName, args, account, chain: walletClient.chain } as never,
    );
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    assert.equal(receipt.status, "success", `${functionName} reverted`);
  };
  await send(ocean, erc20Abi, "transfer", [payer.address, parseEther("10")], contracts.owner);
  await send(ocean, erc20Abi, "approve", [escrow, parseEther("10")], payer);
  await send(escrow, ESCROW_ABI, "deposit", [ocean, parseEther("10")], payer);
  const authorization = [ocean, node.address, parseEther("5"), 3600n, 2n];
  await send(escrow, ESCROW_ABI, "authorize", authorization, payer);
  await send(
    escrow,
    ESCROW_ABI,
    "createLock",
    [7n, ocean, payer.address, parseEther("2.5"), 600n],
    node,
  );
  return { publicClient, payer, payerKey, node, ocean, escrow };
}
