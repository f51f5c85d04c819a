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
  const send = async (request: Parameters<typeof walletClient.writeContract>[0]) => {
    const hash = await walletClient.writeContract(request);
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    assert.equal(receipt.status, "success", `${request.functionName} reverted`);
  };
  const chainOf = walletClient.chain;
  const ocean = contracts.oceanToken;
  const escrow = contracts.escrow;
  await send({
    address: ocean,
    abi: erc20Abi,
    functionName: "transfer",
    args: [payer.address, parseEther("10")],
    account: contracts.owner,
    chain: chainOf,
  });
  await send({
    address: ocean,
    abi: erc20Abi,
    functionName: "approve",
    args: [escrow, parseEther("10")],
    account: payer,
    chain: chainOf,
  });
  await send({
    address: escrow,
    abi: ESCROW_ABI,
    functionName: "deposit",
    args: [ocean, parseEther("10")],
    account: payer,
    chain: chainOf,
  });
  await send({
    address: escrow,
    abi: ESCROW_ABI,
    functionName: "authorize",
    args: [ocean, node.address, parseEther("5"), 3600n, 2n],
    account: payer,
    chain: chainOf,
  });
  await send({
    address: escrow,
    abi: ESCROW_ABI,
    functionName: "createLock",
    args: [7n, ocean, payer.address, parseEther("2.5"), 600n],
    account: node,
    chain: chainOf,
  });
  return { publicClient, payer, payerKey, node, ocean, escrow };
}
