/**
 * The sandbox's local chain: anvil with the Ocean contracts, the sandbox
 * node's assets published on it, and a faucet for test wallets.
 *
 * @module
 */

import { erc20Abi, parseEther, toHex } from "viem";
import type { OceanSandbox } from "../ocean/start_ocean_sandbox.ts";
import { chainClients } from "./_chain_clients.ts";
import { inTransactionLane } from "./_transaction_lane.ts";
import {
  type ChainAddress,
  deployOceanContracts,
  type OceanContracts,
} from "./deploy_ocean_contracts.ts";
import type { DatatokenPricing } from "./publish_datatoken.ts";
import { putOceanOnChain } from "./put_ocean_on_chain.ts";
import { startAnvil } from "./start_anvil.ts";

/** Options of {@linkcode startChainSandbox}. */
export interface ChainSandboxOptions {
  /** Which assets to publish on chain; default every asset of the node. */
  dids?: readonly string[];
  /**
   * Pricing per asset; default every algorithm and every second other asset
   * cost 1 Ocean, the rest are free (so a compute job pays for its algorithm).
   */
  pricing?: (did: string, position: number) => DatatokenPricing;
  /**
   * Ocean per unit of each resource and minute, charged through the
   * chain's Escrow (`{ cpu: 0.5, ram: 0.25 }`); default none: resources
   * cost nothing.
   */
  resourcePrices?: Readonly<Record<string, number>>;
}

/** A running sandbox chain. */
export interface SandboxChain {
  /** The JSON-RPC URL (`http://127.0.0.1:PORT`). */
  readonly rpcUrl: string;
  /** The chain id (31337). */
  readonly chainId: number;
  /** The Ocean contracts. */
  readonly contracts: OceanContracts;
  /** The node's provider-fee address. */
  readonly nodeAddress: ChainAddress;
  /** How each published asset is priced, by its DID on this chain. */
  readonly pricing: ReadonlyMap<string, DatatokenPricing>;
  /**
   * Each published asset's DID before publishing to its DID on this chain:
   * an Ocean DID is derived from the chain id and the asset's data NFT, so
   * publishing renames the asset (the node's `ddos` show the new DIDs).
   */
  readonly dids: ReadonlyMap<string, string>;
  /** Gives an address 100 ether for gas and `ocean` Ocean tokens (decimal string, default "100"). */
  fund(address: string, ocean?: string): Promise<void>;
  /** Kills anvil. */
  close(): Promise<void>;
}

/**
 * Starts anvil, deploys the Ocean contracts and publishes the node's assets
 * on chain, after which the node signs provider fees and checks orders on
 * chain. Publishing renames each asset (its DID names the chain and its
 * NFT): read DIDs from the node after this, or through `dids`. Anvil is killed if any step fails, and by `close()`.
 *
 * @param ocean The sandbox node.
 * @param options Which assets and their pricing.
 * @returns The chain.
 * @example A node with its assets on chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const ocean = startOceanSandbox({ count: 10 });
 * const chain = await startChainSandbox(ocean);
 * try {
 *   await chain.fund(signer.address);
 * } finally {
 *   await chain.close();
 *   await ocean.close();
 * }
 * ```
 */
export async function startChainSandbox(
  ocean: OceanSandbox,
  options: ChainSandboxOptions = {},
): Promise<SandboxChain> {
  const anvil = await startAnvil();
  try {
    const contracts = await deployOceanContracts(anvil);
    const dids = options.dids ?? ocean.ddos.map((d) => d.id);
    const isAlgorithm = (did: string) =>
      ocean.ddos.find((d) => d.id === did)?.metadata.type === "algorithm";
    const pricing = new Map<string, DatatokenPricing>(
      dids.map((did, position) => [
        did,
        options.pricing?.(did, position) ??
          (position % 2 === 1 || isAlgorithm(did)
            ? { type: "fixed", price: "1" }
            : { type: "free" }),
      ]),
    );
    const { nodeAddress, dids: published } = await putOceanOnChain(ocean, anvil, contracts, {
      dids,
      pricing: (did) => pricing.get(did) ?? { type: "free" },
      resourcePrices: options.resourcePrices,
    });
    const onChain = new Map([...pricing].map(([did, price]) => [published.get(did) ?? did, price]));
    const { publicClient, walletClient } = chainClients(anvil);
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      contracts,
      nodeAddress,
      pricing: onChain,
      dids: published,
      async fund(address, ocean = "100") {
        await publicClient.request({
          method: "anvil_setBalance" as never,
          params: [address, toHex(parseEther("100"))] as never,
        });
        const hash = await inTransactionLane(
          anvil.rpcUrl,
          contracts.owner,
          () =>
            walletClient.writeContract({
              address: contracts.oceanToken,
              abi: erc20Abi,
              functionName: "transfer",
              args: [address as ChainAddress, parseEther(ocean)],
              account: contracts.owner,
              chain: walletClient.chain,
            }),
        );
        await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      },
      close: () => anvil.close(),
    };
  } catch (error) {
    await anvil.close();
    throw error;
  }
}
