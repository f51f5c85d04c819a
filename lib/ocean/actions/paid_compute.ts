/**
 * The Ocean node's paid compute calls as free functions of the client
 * (viem's actions): `quoteCompute(node, parameters)`. `OceanNode`'s methods
 * of the same names call these; each loads the code that does the work on
 * its first call. A paid job orders on a chain, so their examples need one.
 *
 * @module
 */

import { priceCap } from "../order/_max_price.ts";
import { checkCall } from "../_option_rules.ts";
import type {
  InitializeComputeParameters,
  InitializeComputeReturnType,
} from "../compute/initialize_compute.ts";
import type { StartComputeParameters, StartComputeReturnType } from "../compute/start_compute.ts";
import type {
  ComputeNode,
  ComputeQuote,
  QuoteComputeParameters,
} from "../compute/_paid_compute_types.ts";
import type { ComputeEnvironment } from "../types.ts";
import { checkServedHere, type NodeHandle } from "./_node.ts";
import { checkAlgorithmPolicy, defaultChainId } from "./_compute_checks.ts";
import { computeEnvironments } from "./compute.ts";
import { initialize } from "./files.ts";
import { ddo } from "./reads.ts";

/**
 * What a paid job would need, as {@linkcode OceanNode.initializeCompute}
 * asks the node: datatokens, valid orders or fresh provider fees, prices.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `consumer`, `environment`, `algorithm`, `datasets`, `payment`.
 * @returns The node's terms, as received.
 * @example What a paid job needs
 * ```ts ignore (needs assets and a payment token on a chain: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
 * const terms = await initializeCompute(node, {
 *   consumer: signer.address, environment: env.id, algorithm, datasets: [dataset],
 *   payment: { chainId: 31337, token: oceanToken },
 * });
 * console.log(terms.datasets[0].validOrder, terms.datasets[0].providerFee?.validUntil);
 * ```
 */
export async function initializeCompute(
  node: NodeHandle,
  parameters: InitializeComputeParameters,
): Promise<InitializeComputeReturnType> {
  checkCall("OceanNode.initializeCompute", parameters);
  for (const ref of [parameters.algorithm, ...(parameters.datasets ?? [])]) {
    await checkServedHere(node, {
      did: ref?.documentId,
      serviceId: ref?.serviceId,
      action: "initialize a compute job",
    });
  }
  const code = await import("../compute/initialize_compute.ts");
  return await code.initializeCompute(node.http, parameters);
}

/**
 * Orders, pays and starts a paid compute job, as {@linkcode OceanNode.startCompute} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `signer`, `environment`, `algorithm`, `datasets`, `rpcUrl`, `maxPrice`, `quote`.
 * @returns The started jobs and the orders they run on.
 * @example A paid job on the sandbox chain
 * ```ts ignore (needs a chain to order on: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
 * const { jobs: [job], orders } = await startCompute(node, {
 *   signer, environment: env.id, algorithm, datasets: [dataset],
 *   rpcUrl: sandbox.chain!.rpcUrl, maxPrice: "2",
 * });
 * ```
 */
export async function startCompute(
  node: NodeHandle,
  parameters: StartComputeParameters,
): Promise<StartComputeReturnType> {
  checkCall("OceanNode.startCompute", parameters);
  const checked = await checkPaidRequest(node, parameters);
  const { startCompute } = await import("../compute/start_compute.ts");
  return await startCompute(computeNode(node), checked.parameters, checked.environments);
}

/**
 * What a paid job will cost, without signing or sending anything, as
 * {@linkcode OceanNode.quoteCompute} quotes it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters As `startCompute`'s, without `quote`.
 * @returns The quote: `transactions` and `totals` tables, and the orders.
 * @example What a paid job will cost
 * ```ts ignore (needs a chain to read prices and balances from: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
 * const quote = await quoteCompute(node, { signer, environment: env.id, algorithm, datasets, rpcUrl });
 * quote.totals.print();
 * const { jobs } = await startCompute(node, {
 *   signer, environment: env.id, algorithm, datasets, rpcUrl, quote, maxPrice: "3",
 * });
 * ```
 */
export async function quoteCompute(
  node: NodeHandle,
  parameters: QuoteComputeParameters,
): Promise<ComputeQuote> {
  checkCall("OceanNode.quoteCompute", parameters);
  const checked = await checkPaidRequest(node, parameters);
  const { quoteCompute } = await import("../compute/quote_compute.ts");
  return await quoteCompute(computeNode(node), checked.parameters, checked.environments);
}

/**
 * What a quote and a start check before reading any price: no asset twice,
 * a price cap, no recording, the algorithm policy; then the environments
 * of the node's chain.
 */
async function checkPaidRequest<P extends QuoteComputeParameters>(
  node: NodeHandle,
  parameters: P,
): Promise<{ parameters: P; environments: ComputeEnvironment[] }> {
  const [{ refuseRepeatedAssets }, { refuseComputeInReplay }] = await Promise.all([
    import("../compute/start_compute.ts"),
    import("../compute/quote_compute.ts"),
  ]);
  refuseRepeatedAssets(parameters);
  parameters = { ...parameters, maxPrice: priceCap(parameters.maxPrice) };
  refuseComputeInReplay(node.http, parameters.signal);
  await checkAlgorithmPolicy(node, parameters);
  const environments = await computeEnvironments(node, await defaultChainId(node));
  return { parameters, environments };
}

/** The node as the paid-compute code reads it: its DDOs, download terms and compute terms. */
function computeNode(node: NodeHandle): ComputeNode {
  return {
    http: node.http,
    ddo: (did) => ddo(node, did),
    initialize: (parameters) => initialize(node, parameters),
    initializeCompute: (parameters) => initializeCompute(node, parameters),
  };
}
