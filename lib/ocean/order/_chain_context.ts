/**
 * The viem clients an order reads and writes with: one chain definition,
 * a reader and a wallet over the chain's JSON-RPC URL. Transactions and the
 * reads that decide them go to the chain directly, never through a
 * recording.
 *
 * @module
 */

import {
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type WalletClient,
} from "viem";
import type { LocalAccount } from "viem/accounts";
import type { ChainHex, OrderAccount } from "./_order_types.ts";

/** The clients of one buyer on one chain. */
export interface ChainContext {
  /** The chain. */
  chain: Chain;
  /** Reads, live. */
  reader: PublicClient;
  /** Sends the buyer's transactions. */
  wallet: WalletClient;
  /** The buyer's account; it signs locally. */
  account: LocalAccount;
  /** The buyer's address. */
  buyer: ChainHex;
}

/**
 * A chain definition for an RPC URL and id.
 *
 * @param rpcUrl The JSON-RPC URL.
 * @param chainId The chain id.
 * @returns The chain.
 */
export function orderChain(rpcUrl: string, chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: "order chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * The clients of a buyer on a chain.
 *
 * @param rpcUrl The JSON-RPC URL.
 * @param chainId The chain id.
 * @param account The buyer's account.
 * @returns The reader, the wallet and the buyer.
 */
export function chainContext(rpcUrl: string, chainId: number, account: OrderAccount): ChainContext {
  const chain = orderChain(rpcUrl, chainId);
  const transport = http(rpcUrl);
  // The parameters' own account type is the part of viem's local account ordering uses.
  const local = account as unknown as LocalAccount;
  return {
    chain,
    reader: createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient,
    wallet: createWalletClient({ chain, transport, account: local, pollingInterval: 50 }),
    account: local,
    buyer: local.address,
  };
}
