import assert from "node:assert/strict";
import { createPublicClient, erc20Abi, http } from "viem";
import {
  deployOceanContracts,
  OCEAN_MINTED,
  startAnvil,
  withAnvil,
} from "../../lib/sandbox/chain/mod.ts";
import { anvilChildren, isRunning } from "./_anvil_processes.ts";
import { ARTIFACTS } from "../../lib/sandbox/chain/_artifacts.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";

Deno.test("anvil starts on loopback, deploys the Ocean contracts and stops", async () => {
  const chain = await startAnvil();
  try {
    assert.match(chain.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(chain.rpcUrl).port, "0");
    assert.equal(await isRunning(chain.pid), true);
    const contracts = await deployOceanContracts(chain);
    const { publicClient } = chainClients(chain);
    for (const [name, address] of Object.entries(contracts)) {
      if (name === "owner") continue;
      const code = await publicClient.getCode({ address });
      assert.ok(code && code.length > 2, `${name} has code`);
    }
    const registered = await publicClient.readContract({
      address: contracts.router,
      abi: ARTIFACTS.FactoryRouter.abi,
      functionName: "factory",
    });
    assert.equal(registered, contracts.erc721Factory);
    const [fixedRate, dispenser] = await Promise.all(
      (["isFixedRateContract", "isDispenserContract"] as const).map((functionName, i) =>
        publicClient.readContract({
          address: contracts.router,
          abi: ARTIFACTS.FactoryRouter.abi,
          functionName,
          args: [i === 0 ? contracts.fixedRateExchange : contracts.dispenser],
        })
      ),
    );
    assert.equal(fixedRate, true);
    assert.equal(dispenser, true);
    const balance = await publicClient.readContract({
      address: contracts.oceanToken,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [contracts.owner],
    });
    assert.equal(balance, OCEAN_MINTED * 10n ** 18n);
  } finally {
    await chain.close();
  }
  assert.equal(await isRunning(chain.pid), false);
  await chain.close(); // twice is harmless
});

Deno.test("withAnvil kills anvil when the body throws, and the RPC port stops answering", async () => {
  let seen: { pid: number; rpcUrl: string } | undefined;
  await assert.rejects(
    withAnvil(async (chain) => {
      seen = { pid: chain.pid, rpcUrl: chain.rpcUrl };
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      assert.equal(await client.getChainId(), 31337);
      throw new Error("body failed");
    }),
    /body failed/,
  );
  assert.ok(seen);
  assert.equal(await isRunning(seen.pid), false);
  const client = createPublicClient({ transport: http(seen.rpcUrl, { retryCount: 0 }) });
  await assert.rejects(client.getBlockNumber());
});

Deno.test("no anvil process is left running after the tests above", async () => {
  assert.deepEqual(await anvilChildren(), []);
});
