import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type WalletClient,
} from "viem";
import type { AnvilChain } from "./start_anvil.ts";

/** A viem public client and a wallet client (anvil's unlocked accounts); they poll every 20 ms because anvil mines at once. */
export function chainClients(
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
): { publicClient: PublicClient; walletClient: WalletClient } {
  const viemChain = defineChain({
    id: chain.chainId,
    name: "tidepool sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const transport = http(chain.rpcUrl);
  return {
    publicClient: createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }),
    walletClient: createWalletClient({ chain: viemChain, transport, pollingInterval: 20 }),
  };
}
