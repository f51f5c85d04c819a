/**
 * The contracts' owner sends every publish of the sandbox: publishes started
 * together must not take the same nonce.
 */

import assert from "node:assert/strict";
import { parseAbi } from "viem";
import { deployOceanContracts, publishDatatoken, withAnvil } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";

const PRICING = parseAbi([
  "function getDispensers() view returns (address[])",
  "function getFixedRates() view returns ((address contractAddress, bytes32 id)[])",
]);

Deno.test("parallel publishes by the owner all land, each with its own datatoken and pricing", async () => {
  await withAnvil(async (chain) => {
    const contracts = await deployOceanContracts(chain);
    const { publicClient } = chainClients(chain);
    const before = await publicClient.getTransactionCount({ address: contracts.owner });
    const published = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        publishDatatoken(chain, contracts, {
          name: `Parallel ${i}`,
          symbol: `PAR${i}`,
          pricing: i % 2 ? { type: "fixed", price: "1" } : { type: "free" },
        })),
    );
    assert.equal(new Set(published.map((p) => p.datatokenAddress)).size, 8);
    assert.equal(await publicClient.getTransactionCount({ address: contracts.owner }), before + 8);
    for (const [i, token] of published.entries()) {
      const [dispensers, exchanges] = await Promise.all([
        publicClient.readContract({
          address: token.datatokenAddress,
          abi: PRICING,
          functionName: "getDispensers",
        }),
        publicClient.readContract({
          address: token.datatokenAddress,
          abi: PRICING,
          functionName: "getFixedRates",
        }),
      ]);
      assert.deepEqual([dispensers.length, exchanges.length], i % 2 ? [0, 1] : [1, 0]);
    }
  });
});
