/**
 * Publishes a data NFT with one datatoken on the local chain, priced through
 * the fixed-rate exchange or free through the dispenser, as a marketplace's
 * publish flow does with ERC721Factory.
 *
 * @module
 */

import { type Abi, getAddress, parseEventLogs, parseUnits, zeroAddress } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import { ARTIFACTS } from "./_artifacts.ts";
import { chainClients } from "./_chain_clients.ts";
import { inTransactionLane } from "./_transaction_lane.ts";
import type { ChainAddress, OceanContracts } from "./deploy_ocean_contracts.ts";
import type { AnvilChain } from "./start_anvil.ts";

/** How a datatoken is obtained: free from the dispenser, or bought for Ocean. */
export type DatatokenPricing =
  | { type: "free" }
  | { type: "fixed"; /** Ocean per datatoken, as a decimal string (`"2.5"`). */ price: string };

/** Parameters of {@linkcode publishDatatoken}. */
export interface PublishDatatokenParameters {
  /** NFT and datatoken name. */
  name: string;
  /** Datatoken symbol. */
  symbol: string;
  /** Free or priced. */
  pricing: DatatokenPricing;
  /**
   * A data NFT the owner published before: the datatoken is created on it
   * (an asset's further services), instead of on a new NFT.
   */
  nft?: ChainAddress;
}

/** A published datatoken and where it is sold or dispensed. */
export interface PublishedDatatoken {
  /** The data NFT. */
  nftAddress: ChainAddress;
  /** The datatoken (ERC20Template, 18 decimals). */
  datatokenAddress: ChainAddress;
  /** The pricing it was published with. */
  pricing: DatatokenPricing;
  /** The fixed-rate exchange id, for priced datatokens. */
  exchangeId?: `0x${string}`;
}

/**
 * Creates an NFT and its datatoken owned by the contracts' owner, with a
 * dispenser (free, minting on demand) or a fixed-rate exchange in Ocean
 * (minting on sale, no market fee).
 *
 * @param chain The running chain.
 * @param contracts The deployed Ocean contracts.
 * @param parameters Name, symbol and pricing.
 * @returns The NFT, datatoken and exchange.
 * @example Publish a free datatoken
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const free = await publishDatatoken(chain, contracts, {
 *   name: "Tides", symbol: "TIDE", pricing: { type: "free" },
 * });
 * ```
 */
export async function publishDatatoken(
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
  contracts: OceanContracts,
  parameters: PublishDatatokenParameters,
): Promise<PublishedDatatoken> {
  if (parameters.nft) return await publishOnNft(chain, contracts, parameters.nft, parameters);
  const { publicClient, walletClient } = chainClients(chain);
  const owner = contracts.owner;
  const nft = {
    name: parameters.name,
    symbol: `${parameters.symbol}-NFT`,
    templateIndex: 1n,
    tokenURI: "",
    transferable: true,
    owner,
  };
  const token = datatokenArguments(owner, parameters);
  const pricing = parameters.pricing;
  const common = { address: contracts.erc721Factory, abi: ARTIFACTS.ERC721Factory.abi };
  // One owner sends every publish: its transactions go one at a time (nonces).
  const hash = await inTransactionLane(
    chain.rpcUrl,
    owner,
    () =>
      pricing.type === "free"
        ? walletClient.writeContract({
          ...common,
          functionName: "createNftWithErc20WithDispenser",
          args: [nft, token, {
            dispenserAddress: contracts.dispenser,
            maxTokens: parseUnits("100", 18),
            maxBalance: parseUnits("100", 18),
            withMint: true,
            allowedSwapper: zeroAddress,
          }],
          account: owner,
          chain: walletClient.chain,
        })
        : walletClient.writeContract({
          ...common,
          functionName: "createNftWithErc20WithFixedRate",
          args: [nft, token, {
            fixedPriceAddress: contracts.fixedRateExchange,
            // base token, owner, market fee collector, allowed consumer
            addresses: [contracts.oceanToken, owner, owner, zeroAddress],
            // base decimals, datatoken decimals, rate, market fee, with mint
            uints: [18n, 18n, parseUnits(pricing.price, 18), 0n, 1n],
          }],
          account: owner,
          chain: walletClient.chain,
        }),
  );
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== "success") {
    throw new TidepoolError(`Cannot publish ${parameters.name}: the transaction reverted`, {
      details: `transaction ${hash}`,
      detailsLabel: "Chain said",
    });
  }
  const [created] = parseEventLogs({
    abi: ARTIFACTS.ERC721Factory.abi,
    eventName: "NFTCreated",
    logs: receipt.logs,
  }) as unknown as { args: { newTokenAddress: ChainAddress } }[];
  const [datatoken] = parseEventLogs({
    abi: ARTIFACTS.ERC721Factory.abi,
    eventName: "TokenCreated",
    logs: receipt.logs,
  }) as unknown as { args: { newTokenAddress: ChainAddress } }[];
  const [exchange] = parseEventLogs({
    abi: ARTIFACTS.FixedRateExchange.abi,
    eventName: "ExchangeCreated",
    logs: receipt.logs,
  }) as unknown as { args: { exchangeId: `0x${string}` } }[];
  return {
    nftAddress: getAddress(created.args.newTokenAddress),
    datatokenAddress: getAddress(datatoken.args.newTokenAddress),
    pricing,
    ...(exchange ? { exchangeId: exchange.args.exchangeId } : {}),
  };
}

/** The parts of a datatoken the Ocean contracts take: name and symbol, roles, cap. */
function datatokenArguments(owner: ChainAddress, parameters: PublishDatatokenParameters) {
  return {
    templateIndex: 1n,
    strings: [parameters.name, parameters.symbol],
    // minter, payment collector, publish market fee address and token
    addresses: [owner, owner, zeroAddress, zeroAddress],
    // cap, publish market fee amount
    uints: [parseUnits("1000000", 18), 0n],
    bytess: [],
  };
}

/**
 * A further datatoken of an NFT (an asset's further service), as a
 * marketplace adds one: `createERC20` on the NFT, then the datatoken's own
 * dispenser or fixed-rate exchange.
 */
async function publishOnNft(
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
  contracts: OceanContracts,
  nft: ChainAddress,
  parameters: PublishDatatokenParameters,
): Promise<PublishedDatatoken> {
  const { publicClient, walletClient } = chainClients(chain);
  const owner = contracts.owner;
  const send = async (
    address: ChainAddress,
    abi: Abi,
    functionName: string,
    args: unknown[],
  ) => {
    const hash = await inTransactionLane(chain.rpcUrl, owner, () =>
      walletClient.writeContract({
        address,
        abi,
        functionName,
        args,
        account: owner,
        chain: walletClient.chain,
      }));
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") {
      throw new TidepoolError(`Cannot publish ${parameters.name}: ${functionName} reverted`, {
        details: `transaction ${hash}`,
        detailsLabel: "Chain said",
      });
    }
    return receipt;
  };
  const token = datatokenArguments(owner, parameters);
  const created = await send(nft, ARTIFACTS.ERC721Template.abi, "createERC20", [
    token.templateIndex,
    token.strings,
    token.addresses,
    token.uints,
    token.bytess,
  ]);
  const [event] = parseEventLogs({
    abi: ARTIFACTS.ERC721Factory.abi,
    eventName: "TokenCreated",
    logs: created.logs,
  }) as unknown as { args: { newTokenAddress: ChainAddress } }[];
  const datatokenAddress = getAddress(event.args.newTokenAddress);
  const pricing = parameters.pricing;
  if (pricing.type === "free") {
    await send(datatokenAddress, ARTIFACTS.ERC20Template.abi, "createDispenser", [
      contracts.dispenser,
      parseUnits("100", 18),
      parseUnits("100", 18),
      true,
      zeroAddress,
    ]);
    return { nftAddress: getAddress(nft), datatokenAddress, pricing };
  }
  const priced = await send(datatokenAddress, ARTIFACTS.ERC20Template.abi, "createFixedRate", [
    contracts.fixedRateExchange,
    [contracts.oceanToken, owner, owner, zeroAddress],
    [18n, 18n, parseUnits(pricing.price, 18), 0n, 1n],
  ]);
  const [exchange] = parseEventLogs({
    abi: ARTIFACTS.FixedRateExchange.abi,
    eventName: "ExchangeCreated",
    logs: priced.logs,
  }) as unknown as { args: { exchangeId: `0x${string}` } }[];
  return {
    nftAddress: getAddress(nft),
    datatokenAddress,
    pricing,
    exchangeId: exchange.args.exchangeId,
  };
}
