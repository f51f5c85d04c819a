/**
 * The Escrow of paid compute on the sandbox chain (the real contract of
 * @oceanprotocol/contracts 2.6.0), and `escrowTable` reading a payer's
 * funds, authorizations and locks from it: every figure checked against
 * viem's own reads of the contract.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployOceanContracts, startAnvil } from "../../lib/sandbox/chain/mod.ts";
import { escrowTable } from "../../lib/ocean/mod.ts";
import { ESCROW_ABI as ESCROW, escrowWithLock } from "./_escrow_setup.ts";

Deno.test("escrowTable shows a payer's funds, authorization and lock, and no other payer's", async () => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const { publicClient, payer, node, ocean } = await escrowWithLock(chain, contracts);
    assert.equal(
      await publicClient.readContract({
        address: contracts.escrow,
        abi: ESCROW,
        functionName: "factoryRouter",
      }),
      contracts.router,
      "the sandbox deploys the Escrow with the router",
    );
    const block = await publicClient.getBlock();
    // Another payer's lock in the same token: the Escrow's getLocks matches it too.
    await escrowWithLock(chain, contracts);

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
