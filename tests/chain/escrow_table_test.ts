/**
 * The Escrow of paid compute on the sandbox chain (the real contract of
 * @oceanprotocol/contracts 2.6.0), and `escrowTable` reading a payer's
 * funds, authorizations and locks from it: every figure checked against
 * viem's own reads of the contract.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseAbi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployOceanContracts, startAnvil } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { escrowTable } from "../../lib/ocean/mod.ts";

const ESCROW = parseAbi([
  "function factoryRouter() view returns (address)",
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
  "function createLock(uint256 jobId, address token, address payer, uint256 amount, uint256 expiry)",
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
]);

Deno.test("escrowTable shows a payer's funds, authorization and lock as the Escrow holds them", async () => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const { publicClient, walletClient } = chainClients(chain);
    assert.equal(
      await publicClient.readContract({
        address: contracts.escrow,
        abi: ESCROW,
        functionName: "factoryRouter",
      }),
      contracts.router,
      "the sandbox deploys the Escrow with the router",
    );
    const payer = privateKeyToAccount(generatePrivateKey());
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
      args: [contracts.escrow, parseEther("10")],
      account: payer,
      chain: chainOf,
    });
    await send({
      address: contracts.escrow,
      abi: ESCROW,
      functionName: "deposit",
      args: [ocean, parseEther("10")],
      account: payer,
      chain: chainOf,
    });
    await send({
      address: contracts.escrow,
      abi: ESCROW,
      functionName: "authorize",
      args: [ocean, node.address, parseEther("5"), 3600n, 2n],
      account: payer,
      chain: chainOf,
    });
    await send({
      address: contracts.escrow,
      abi: ESCROW,
      functionName: "createLock",
      args: [7n, ocean, payer.address, parseEther("2.5"), 600n],
      account: node,
      chain: chainOf,
    });
    const block = await publicClient.getBlock();

    const table = await escrowTable({
      rpcUrl: chain.rpcUrl,
      escrow: contracts.escrow,
      payer: payer.address,
      payees: [node.address],
      chainId: chain.chainId,
      cache: false,
    });
    const rows = table.objects() as Record<string, unknown>[];
    assert.deepEqual(rows.map((r) => r.kind), ["funds", "authorization", "lock"]);
    const funds = await publicClient.readContract({
      address: contracts.escrow,
      abi: ESCROW,
      functionName: "getUserFunds",
      args: [payer.address, ocean],
    });
    assert.deepEqual([funds.available, funds.locked], [parseEther("7.5"), parseEther("2.5")]);
    assert.deepEqual(
      [rows[0].token, rows[0].symbol, rows[0].payee, rows[0].amount, rows[0].locked],
      [ocean.toLowerCase(), "OCEAN", null, "7.5", "2.5"],
    );
    assert.deepEqual(
      [rows[1].payee, rows[1].amount, rows[1].locked, rows[1].maxLockSeconds],
      [node.address.toLowerCase(), "5", "2.5", 3600],
    );
    assert.deepEqual([rows[1].maxLockCounts, rows[1].currentLocks], [2, 1]);
    assert.deepEqual([rows[2].jobId, rows[2].amount], ["7", "2.5"]);
    const expiry = (rows[2].expiry as Date).getTime() / 1000;
    assert.ok(
      expiry >= Number(block.timestamp) && expiry <= Number(block.timestamp) + 600,
      `the lock expires within its 600 s: ${expiry} vs block ${block.timestamp}`,
    );
  } finally {
    await chain.close();
  }
});

Deno.test("escrowTable of a wallet that never deposited is empty; a missing field is refused", async () => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const payer = privateKeyToAccount(generatePrivateKey());
    const table = await escrowTable({
      rpcUrl: chain.rpcUrl,
      escrow: contracts.escrow,
      payer: payer.address,
      payees: [contracts.owner],
      chainId: chain.chainId,
      cache: false,
    });
    assert.equal(table.numRows(), 0);
    await assert.rejects(
      () => escrowTable({ rpcUrl: chain.rpcUrl, escrow: "", payer: payer.address }),
      /Cannot read the escrow: no escrow/,
    );
  } finally {
    await chain.close();
  }
});
