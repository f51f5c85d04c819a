/**
 * Deploys the Ocean contracts a marketplace needs onto a local chain, in the
 * order of the contracts repository's `scripts/deploy-contracts.js`.
 *
 * @module
 */

import { getAddress } from "viem";
import { chainClients } from "./_chain_clients.ts";
import { inTransactionLane } from "./_transaction_lane.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { type Artifact, ARTIFACTS } from "./_artifacts.ts";
import type { AnvilChain } from "./start_anvil.ts";

/** A checksummed `0x` address on the chain. */
export type ChainAddress = `0x${string}`;

/** The addresses of the deployed Ocean contracts. */
export interface OceanContracts {
  /** The account that deployed and owns every contract (anvil's first dev account). */
  owner: ChainAddress;
  /** The Ocean token (ERC20, 18 decimals); the owner holds the minted supply. */
  oceanToken: ChainAddress;
  /** Receives Ocean's community fees. */
  opfCommunityFeeCollector: ChainAddress;
  /** The router every exchange and dispenser is registered with. */
  router: ChainAddress;
  /** Fixed-rate exchange: priced datatokens. */
  fixedRateExchange: ChainAddress;
  /** Dispenser: free datatokens. */
  dispenser: ChainAddress;
  /** Datatoken template (template index 1). */
  erc20Template: ChainAddress;
  /** Data NFT template (template index 1). */
  erc721Template: ChainAddress;
  /** Creates data NFTs and their datatokens. */
  erc721Factory: ChainAddress;
  /**
   * The Escrow of paid compute (ocean-node's C2D v2): payers deposit and
   * authorize a node, the node locks a job's price and claims it.
   */
  escrow: ChainAddress;
}

/** Ocean tokens minted to the owner at deployment, in whole tokens. */
export const OCEAN_MINTED = 1_000_000n;

/**
 * Deploys OceanToken, OPFCommunityFeeCollector, FactoryRouter,
 * FixedRateExchange, Dispenser, the ERC20 and ERC721 templates and
 * ERC721Factory with anvil's first (unlocked) dev account, registers them on
 * the router and mints {@linkcode OCEAN_MINTED} Ocean to the owner. No
 * private key passes through tidepool: anvil signs for its dev accounts.
 *
 * @param chain The running chain, from `startAnvil`.
 * @returns The contract addresses.
 * @example Deploy onto a fresh chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * await withAnvil(async (chain) => {
 *   const contracts = await deployOceanContracts(chain);
 *   console.log(contracts.erc721Factory);
 * });
 * ```
 */
export async function deployOceanContracts(
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
): Promise<OceanContracts> {
  const { publicClient, walletClient } = chainClients(chain);
  const [owner] = await walletClient.getAddresses();
  if (!owner) {
    throw new TidepoolError(
      "Cannot deploy the Ocean contracts: the chain has no unlocked account",
      {
        hint: "Deploy onto an anvil started by startAnvil, which unlocks its dev accounts",
      },
    );
  }
  const deploy = async (name: keyof typeof ARTIFACTS, args: unknown[]) => {
    const { abi, bytecode }: Artifact = ARTIFACTS[name];
    const hash = await inTransactionLane(chain.rpcUrl, owner, () =>
      walletClient.deployContract({
        abi,
        bytecode,
        args,
        account: owner,
        chain: walletClient.chain,
      }));
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success" || !receipt.contractAddress) {
      throw new TidepoolError(`Cannot deploy ${name}: the deployment transaction reverted`, {
        details: `transaction ${hash}`,
        detailsLabel: "Chain said",
        hint: "Check the constructor arguments against the contracts' deploy script",
      });
    }
    // Checksummed, so addresses compare equal to what contracts return.
    return getAddress(receipt.contractAddress);
  };
  const call = async (
    address: ChainAddress,
    name: keyof typeof ARTIFACTS,
    fn: string,
    args: unknown[],
  ) => {
    const hash = await inTransactionLane(chain.rpcUrl, owner, () =>
      walletClient.writeContract({
        address,
        abi: ARTIFACTS[name].abi,
        functionName: fn,
        args,
        account: owner,
        chain: walletClient.chain,
      }));
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") {
      throw new TidepoolError(`Cannot set up the Ocean contracts: ${name}.${fn} reverted`, {
        details: `transaction ${hash}`,
        detailsLabel: "Chain said",
      });
    }
  };

  const oceanToken = await deploy("OceanToken", [owner]);
  const opfCommunityFeeCollector = await deploy("OPFCommunityFeeCollector", [owner, owner]);
  // No balancer pools in the sandbox: the pool template slot only has to be non-zero.
  const router = await deploy("FactoryRouter", [
    owner,
    oceanToken,
    owner,
    opfCommunityFeeCollector,
    [],
  ]);
  const fixedRateExchange = await deploy("FixedRateExchange", [router]);
  const erc20Template = await deploy("ERC20Template", []);
  const erc721Template = await deploy("ERC721Template", []);
  const dispenser = await deploy("Dispenser", [router]);
  const erc721Factory = await deploy("ERC721Factory", [erc721Template, erc20Template, router]);
  await call(router, "FactoryRouter", "addFactory", [erc721Factory]);
  await call(router, "FactoryRouter", "addFixedRateContract", [fixedRateExchange]);
  await call(router, "FactoryRouter", "addDispenserContract", [dispenser]);
  await call(oceanToken, "OceanToken", "mint", [owner, OCEAN_MINTED * 10n ** 18n]);
  // Last, so the addresses of everything before stay as they were.
  const escrow = await deploy("Escrow", [router, opfCommunityFeeCollector]);
  return {
    escrow,
    owner,
    oceanToken,
    opfCommunityFeeCollector,
    router,
    fixedRateExchange,
    dispenser,
    erc20Template,
    erc721Template,
    erc721Factory,
  };
}
