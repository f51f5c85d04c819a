/**
 * Puts a sandbox Ocean node's assets on a local chain: one NFT and datatoken
 * per service, free through the dispenser or priced through the fixed-rate
 * exchange; from then on the node signs provider fees with its own key and
 * checks orders on chain the way ocean-node does.
 *
 * @module
 */

import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { OceanSandbox } from "../ocean/start_ocean_sandbox.ts";
import { chainClients } from "./_chain_clients.ts";
import type { ChainAddress, OceanContracts } from "./deploy_ocean_contracts.ts";
import { type DatatokenPricing, publishDatatoken } from "./publish_datatoken.ts";
import { signProviderFee } from "./provider_fee.ts";
import type { AnvilChain } from "./start_anvil.ts";
import type { SandboxEnvironment } from "../ocean/compute/trial_environment.ts";
import { validateOrder } from "./validate_order.ts";
import { escrowPayee } from "./escrow_payee.ts";

/** Options of {@linkcode putOceanOnChain}. */
export interface PutOceanOnChainOptions {
  /** Which assets to publish on chain; default every asset the node serves. */
  dids?: readonly string[];
  /** The pricing of an asset's services; default free, except an asset whose stats give a positive price. */
  pricing?: (did: string) => DatatokenPricing;
  /**
   * Ocean per unit of each resource and minute (`{ cpu: 0.5, ram: 0.25 }`);
   * default none: resources cost nothing and no escrow is used. With a
   * price, every environment charges it through the chain's Escrow.
   */
  resourcePrices?: Readonly<Record<string, number>>;
}

/** What {@linkcode putOceanOnChain} set up. */
export interface OceanOnChain {
  /** The node's fee address (its key stays inside). */
  nodeAddress: ChainAddress;
  /** DID (on the chain) to datatoken address, per service id. */
  datatokens: Map<string, Map<string, ChainAddress>>;
  /**
   * Each published asset's DID as given to its DID on the chain: the DID
   * names the chain and the NFT, so publishing renames the asset.
   */
  dids: Map<string, string>;
}

/**
 * Publishes the node's assets on chain (one data NFT per asset, a datatoken
 * per service), rewrites each DDO as published there (its chain id, NFT,
 * datatokens, and so its DID: {@linkcode OceanOnChain.dids}), and makes `initialize` and
 * `download` use the chain; the node's environments take paid jobs in Ocean
 * on this chain (resources free of charge, assets paid by their orders).
 *
 * @param ocean The sandbox node (with its compute routes).
 * @param chain The running chain.
 * @param contracts The deployed Ocean contracts.
 * @param options Which assets and their pricing.
 * @returns The node address and the datatokens.
 * @example Put two assets on chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * await putOceanOnChain(ocean, chain, contracts, { dids: ocean.ddos.slice(0, 2).map((d) => d.id) });
 * ```
 */
export async function putOceanOnChain(
  ocean: OceanSandbox,
  chain: Pick<AnvilChain, "rpcUrl" | "chainId">,
  contracts: OceanContracts,
  options: PutOceanOnChainOptions = {},
): Promise<OceanOnChain> {
  const routes = ocean.compute;
  if (!routes) throw new Error("The sandbox node was started with compute: false");
  const node = privateKeyToAccount(generatePrivateKey());
  const { publicClient } = chainClients(chain);
  const wanted = options.dids ? new Set(options.dids) : undefined;
  const datatokens = new Map<string, Map<string, ChainAddress>>();
  const dids = new Map<string, string>();
  // A copy: moving an asset on chain renames it in the node's index.
  for (const ddo of [...ocean.ddos]) {
    if (wanted && !wanted.has(ddo.id)) continue;
    const perService = new Map<string, ChainAddress>();
    let nft: ChainAddress | undefined;
    // One data NFT per asset, a datatoken per service, as Ocean publishes.
    for (const [index, service] of ddo.services.entries()) {
      const published = await publishDatatoken(chain, contracts, {
        name: `${ddo.metadata.name}`.slice(0, 40),
        symbol: `DT${datatokens.size}-${index}`,
        pricing: options.pricing?.(ddo.id) ?? { type: "free" },
        nft,
      });
      nft = published.nftAddress;
      perService.set(service.id, published.datatokenAddress);
    }
    const seeded = ddo.id;
    // The served DDO is this object: clients read the NFT, chain, datatokens and DID from it.
    const did = nft
      ? ocean.moveOnChain(seeded, {
        chainId: chain.chainId,
        nftAddress: nft,
        datatokens: perService,
      })
      : seeded;
    dids.set(seeded, did);
    datatokens.set(did, perService);
  }
  const locate = (did: string, serviceId: string) => {
    const ddo = ocean.ddos.find((d) => d.id === did);
    const index = ddo?.services.findIndex((s) => s.id === serviceId) ?? -1;
    const datatoken = datatokens.get(did)?.get(serviceId);
    return ddo && index >= 0 && datatoken
      ? { index, datatoken, timeout: Number(ddo.services[index].timeout ?? 0) }
      : undefined;
  };
  const prices = options.resourcePrices ?? {};
  const priced = Object.values(prices).some((price) => price > 0);
  if (priced) {
    // The node sends its locks and claims itself: it needs gas.
    await publicClient.request({
      method: "anvil_setBalance" as never,
      params: [node.address, "0x56BC75E2D63100000"] as never,
    });
  }
  routes.useChain({
    escrow: priced ? escrowPayee(chain, contracts, node) : undefined,
    async initialize({ did, serviceId, consumer, validUntil, environment }) {
      const found = locate(did, serviceId);
      if (!found) return { error: `Service ${serviceId} of ${did} is not on chain` };
      const providerFee = await signProviderFee(node, {
        providerFeeToken: contracts.oceanToken,
        providerFeeAmount: 0n,
        validUntil,
        data: {
          environment: environment ?? "download",
          timestamp: validUntil,
          dt: found.datatoken,
          id: serviceId,
        },
      });
      return { datatoken: found.datatoken, computeAddress: consumer, providerFee };
    },
    async checkOrder(order) {
      const found = locate(order.did, order.serviceId);
      if (!found) return { valid: false, reason: "Service is not on chain" };
      if (!/^0x[0-9a-fA-F]{64}$/.test(order.txId)) return { valid: false, reason: "Invalid tx id" };
      return await validateOrder(publicClient, {
        txId: order.txId as `0x${string}`,
        datatoken: found.datatoken,
        consumer: order.consumer as ChainAddress,
        payer: order.payer as ChainAddress | undefined,
        serviceIndex: found.index,
        timeout: found.timeout,
      });
    },
  });
  // Paid jobs from now on: every environment takes Ocean on this chain. Without prices the
  // resources cost nothing and no escrow is needed; the assets are paid by their orders.
  for (const environment of ocean.environments) {
    (environment as { fees: SandboxEnvironment["fees"] }).fees = {
      [String(chain.chainId)]: [{
        feeToken: contracts.oceanToken,
        prices: environment.resources.map((r) => ({ id: r.id, price: prices[r.id] ?? 0 })),
      }],
    };
  }
  return { nodeAddress: node.address, datatokens, dids };
}
