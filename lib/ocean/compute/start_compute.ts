import { TidepoolError } from "../../errors/errors.ts";
import type { HttpClient } from "../../http/client.ts";
import { type AssetOrderNode, prepareAssetOrder, SANDBOX_CHAIN_ID } from "../order/order_asset.ts";
import type { ChainHex, DatatokenOrder, PreparedOrder } from "../order/order_datatoken.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner } from "../_address.ts";
import { onChain } from "../order/_chain_errors.ts";
import { precheckPaidCompute } from "./_paid_precheck.ts";
import { sendStart } from "./_start_answer.ts";
import type {
  ComputeAssetTerms,
  InitializeComputeParameters,
  InitializeComputeReturnType,
  PaidComputeAssetRef,
} from "./initialize_compute.ts";
import type { ComputeEnvironmentLimits, ComputeJob, ResourceRequest } from "./types.ts";

/** Parameters of {@linkcode OceanNode.startCompute}. */
export interface StartComputeParameters {
  /** The wallet that orders, pays and signs the start. */
  signer: Signer;
  /** The environment id, `<cluster hash>-<environment hash>`. */
  environment: string;
  /** The algorithm and its compute service (with `transferTxId` to use an order you made). */
  algorithm: PaidComputeAssetRef;
  /** The datasets and their compute services (each may carry its `transferTxId`). */
  datasets: PaidComputeAssetRef[];
  /** The JSON-RPC URL of the chain the orders are made on (the sandbox's `chain.rpcUrl`). */
  rpcUrl: string;
  /** The chain id of the orders and the payment; default the sandbox chain's. */
  chainId?: number;
  /** The token the environment is paid in; default the first it lists for the chain. */
  paymentToken?: string;
  /** The most to pay for each datatoken, in base-token units (`"5"`). */
  maxPrice?: string;
  /**
   * Pay for new orders even when still-valid ones exist (as `orderAsset`'s
   * `force`); default false. A `transferTxId` given is still used.
   */
  force?: boolean;
  /**
   * Blocks per `eth_getLogs` request when looking for a still-valid order to
   * reuse; default 10,000. Lower it for an RPC provider that caps ranges
   * tighter (the error of a refused range names the provider's limit).
   */
  logRangeBlocks?: number;
  /** Resources, each within the environment's min and max. */
  resources?: ResourceRequest[];
  /** Longest run in seconds, within the environment's limits. */
  maxJobDuration?: number;
  /** Where the node should store the output (node specific). */
  output?: Record<string, unknown>;
  /** Free-form metadata stored with the job. */
  metadata?: Record<string, unknown>;
  /** Other addresses that may list and download the job. */
  additionalViewers?: string[];
  /** Cancels the requests (not a transaction already sent). */
  signal?: AbortSignal;
}

/** What {@linkcode OceanNode.startCompute} returns. */
export interface StartComputeReturnType {
  /** The jobs the node started (usually one), as it answered. */
  jobs: ComputeJob[];
  /** The orders the job runs on: new, reused, or the ones you gave. */
  orders: { algorithm: DatatokenOrder; datasets: DatatokenOrder[] };
}

/**
 * What a paid start asks of a node: ordering its assets, the compute terms
 * and the client that sends the start. An `OceanNode` has them all; naming
 * them here keeps this file below the client that calls it.
 */
export interface ComputeNode extends AssetOrderNode {
  /** The node's HTTP client. */
  readonly http: HttpClient;
  /** The compute terms: prices, fees and valid orders. */
  initializeCompute(parameters: InitializeComputeParameters): Promise<InitializeComputeReturnType>;
}

/** The body of {@linkcode OceanNode.startCompute}, with the environments already read; documented there. */
export async function startCompute(
  node: ComputeNode,
  parameters: StartComputeParameters,
  environments: readonly ComputeEnvironmentLimits[],
): Promise<StartComputeReturnType> {
  const signer = checksummedSigner(parameters.signer);
  const chainId = parameters.chainId ?? SANDBOX_CHAIN_ID;
  const check = precheckPaidCompute(
    { ...parameters, address: signer.address },
    environments,
    { chainId, token: parameters.paymentToken },
  );
  if (check.violations.length > 0 || !check.token) {
    throw new TidepoolError(`Cannot start compute job: ${check.violations.join("; ")}`, {
      hint: "Change the request to fit the environment (see computeEnvironments and its fees)",
    });
  }
  const payment = { chainId, token: check.token };
  const terms = await node.initializeCompute({
    consumer: signer.address,
    environment: parameters.environment,
    algorithm: parameters.algorithm,
    datasets: parameters.datasets,
    payment,
    maxJobDuration: parameters.maxJobDuration,
    resources: parameters.resources,
    signal: parameters.signal,
  });
  refuseEscrowPayment(terms);

  const refs = [parameters.algorithm, ...parameters.datasets];
  const assetTerms = matchTerms(refs, terms);
  const prepared: PreparedOrder[] = [];
  for (const [i, ref] of refs.entries()) {
    prepared.push(await prepareOne(node, signer, parameters, ref, assetTerms[i], chainId));
  }
  await checkCombinedBalance(prepared, refs);

  const orders: DatatokenOrder[] = [];
  try {
    for (const order of prepared) orders.push(await order.send());
  } catch (error) {
    throw failedAfterPaying(error, refs, orders);
  }
  const withOrders = refs.map((ref, i) => ({ ...ref, transferTxId: orders[i].txHash }));
  const body = {
    environment: parameters.environment,
    algorithm: withOrders[0],
    datasets: withOrders.slice(1),
    payment,
    resources: parameters.resources,
    maxJobDuration: parameters.maxJobDuration,
    output: parameters.output,
    metadata: parameters.metadata,
    additionalViewers: parameters.additionalViewers,
  };
  let jobs: ComputeJob[];
  try {
    jobs = await sendStart(node.http, signer, {
      command: "startCompute",
      action: "start a paid compute job",
      path: "/api/services/compute",
      body,
      signal: parameters.signal,
    });
  } catch (error) {
    throw failedAfterPaying(error, refs, orders);
  }
  return {
    jobs,
    orders: { algorithm: orders[0], datasets: orders.slice(1) },
  };
}

/**
 * A failure once some orders were paid names them, so that they are not
 * paid again: an order stays valid, and a start that names it (or a new
 * start, whose initializeCompute reports it valid) uses it.
 */
function failedAfterPaying(
  error: unknown,
  refs: readonly PaidComputeAssetRef[],
  orders: readonly DatatokenOrder[],
): unknown {
  const paid = orders.flatMap((order, i) =>
    order.source === "reused" ? [] : [`${refs[i].documentId} ${order.txHash}`]
  );
  if (paid.length === 0) return error;
  // viem's shortMessage leaves out the request and the RPC URL, which may hold a provider key.
  const said = error instanceof TidepoolError
    ? error.shortMessage
    : (error as { shortMessage?: string })?.shortMessage ??
      String((error as Error)?.message ?? error);
  const earlier = error instanceof TidepoolError && error.hint ? `${error.hint}. ` : "";
  return new TidepoolError(
    `Cannot start compute job after paying ${paid.length} order${paid.length === 1 ? "" : "s"}: ${
      said.replace(/^Cannot start compute job: /, "")
    }`,
    {
      details: error instanceof TidepoolError ? error.details : undefined,
      detailsLabel: error instanceof TidepoolError ? error.detailsLabel : undefined,
      hint: `${earlier}The paid orders stay valid (${
        paid.join(", ")
      }): start again and they are reused, or give each as its asset's transferTxId`,
      cause: error,
    },
  );
}

/**
 * Each asset's terms, found by `did` and `serviceId` rather than by
 * position: a node answering in another order would otherwise have one
 * asset ordered with another's provider fee, refused only after paying.
 * An answer that does not name an asset (or names it twice) is refused
 * before anything is sent (see docs/ASSUMPTIONS.md).
 */
/**
 * Refuses an asset listed twice (the same did and service, as a dataset
 * twice or as the algorithm and a dataset): each listing would be ordered
 * and paid on its own. Called before any request.
 */
export function refuseRepeatedAssets(parameters: StartComputeParameters): void {
  const seen = new Set<string>();
  for (const ref of [parameters.algorithm, ...parameters.datasets]) {
    const name = `${ref.documentId} service ${ref.serviceId}`;
    if (seen.has(name)) {
      throw new TidepoolError(`Cannot start compute job: ${name} is listed twice`, {
        hint:
          "Nothing was sent or paid. Each listing is ordered and paid on its own; list each asset once",
      });
    }
    seen.add(name);
  }
}

function matchTerms(
  refs: readonly PaidComputeAssetRef[],
  terms: InitializeComputeReturnType,
): ComputeAssetTerms[] {
  const answered = [terms.algorithm, ...terms.datasets].filter(
    (term): term is ComputeAssetTerms => term !== null && typeof term === "object",
  );
  const unused = new Set(answered);
  return refs.map((ref) => {
    const term = [...unused].find((t) => t.did === ref.documentId && t.serviceId === ref.serviceId);
    if (!term) {
      const named = answered.map((t) =>
        `${t.did ?? "(no did)"} ${t.serviceId ?? "(no serviceId)"}`
      );
      throw new TidepoolError(
        `Cannot start compute job: initializeCompute gave no terms naming ${ref.documentId} service ${ref.serviceId}`,
        {
          details: named.join("; ") || "no terms",
          detailsLabel: "Node answered for",
          hint:
            "Nothing was paid. The node must name each asset's did and serviceId so its provider fee is not used for another asset; check the node's version",
        },
      );
    }
    unused.delete(term);
    return term;
  });
}

/** tidepool pays datatoken orders; a resource price needs an escrow lock it does not make. */
function refuseEscrowPayment(terms: InitializeComputeReturnType): void {
  const amount = terms.payment?.amount;
  if (amount === undefined || !/^[0-9]+$/.test(String(amount)) || BigInt(amount) === 0n) return;
  throw new TidepoolError(
    `Cannot start compute job: the environment charges ${amount} base units of ${terms.payment?.token} for its resources, paid through an escrow lock tidepool does not make`,
    {
      hint:
        "Pick an environment whose resources cost nothing on this chain, or lock the payment in the node's escrow yourself",
    },
  );
}

/** An order for one asset: the one given, the one the node found valid, or a fresh one. */
async function prepareOne(
  node: ComputeNode,
  signer: Signer,
  parameters: StartComputeParameters,
  ref: PaidComputeAssetRef,
  terms: ComputeAssetTerms | null | undefined,
  chainId: number,
): Promise<PreparedOrder> {
  const given = ref.transferTxId ??
    (typeof terms?.validOrder === "string" ? terms.validOrder : undefined);
  if (given) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(given)) {
      throw new TidepoolError(
        `Cannot start compute job: transferTxId ${
          given.slice(0, 80)
        } of ${ref.documentId} is not a transaction hash`,
        { hint: "Give the hash of the startOrder transaction (0x and 64 hex digits)" },
      );
    }
    // viem loads with the first order: importing tidepool should not pay for it.
    const { minedBlock } = await import("../order/_order_transactions.ts");
    const block = await onChain(
      parameters.rpcUrl,
      `check order ${given} of ${ref.documentId}`,
      () => minedBlock(parameters.rpcUrl, chainId, given as ChainHex),
    );
    if (block === undefined) {
      throw new TidepoolError(
        `Cannot start compute job: order ${given} of ${ref.documentId} is not a successful transaction on chain ${chainId}`,
        { hint: "Check rpcUrl and chainId, or leave transferTxId out to order again" },
      );
    }
    return alreadyOrdered(given as ChainHex, block, signer);
  }
  if (!terms?.providerFee || !terms.consumerAddress) {
    throw new TidepoolError(
      `Cannot start compute job: initializeCompute gave no provider fee for ${ref.documentId}`,
      { hint: "Check that the asset's compute service is served by this node" },
    );
  }
  return await prepareAssetOrder(node, ref.documentId, ref.serviceId, signer, {
    rpcUrl: parameters.rpcUrl,
    chainId,
    maxPrice: parameters.maxPrice,
    force: parameters.force,
    logRangeBlocks: parameters.logRangeBlocks,
    consumer: terms.consumerAddress,
    providerFee: terms.providerFee,
  });
}

/** An order made before: nothing to pay or send. */
function alreadyOrdered(txHash: ChainHex, blockNumber: bigint, signer: Signer): PreparedOrder {
  const order: DatatokenOrder = { txHash, blockNumber, pricePaid: "0", source: "reused" };
  return {
    source: "reused",
    price: 0n,
    priceDecimals: 18,
    feeToken: "0x0000000000000000000000000000000000000000",
    feeAmount: 0n,
    buyer: signer.address,
    balanceOf: () => Promise.resolve(0n),
    send: () => Promise.resolve(order),
  };
}

/** Each order checked its own cost; together they must fit the balance too, before any is sent. */
async function checkCombinedBalance(
  prepared: readonly PreparedOrder[],
  refs: readonly PaidComputeAssetRef[],
): Promise<void> {
  const needs = new Map<ChainHex, { amount: bigint; order: PreparedOrder; what: string[] }>();
  const add = (token: ChainHex | undefined, amount: bigint, order: PreparedOrder, what: string) => {
    if (!token || amount === 0n) return;
    const need = needs.get(token) ?? { amount: 0n, order, what: [] };
    need.amount += amount;
    need.what.push(what);
    needs.set(token, need);
  };
  const decimals = new Map<ChainHex, number>();
  prepared.forEach((order, i) => {
    if (order.baseToken) decimals.set(order.baseToken, order.priceDecimals);
    const what = i === 0 ? "the algorithm" : `dataset ${refs[i].documentId}`;
    add(order.baseToken, order.price, order, what);
    add(order.feeToken, order.feeAmount, order, `${what}'s provider fee`);
  });
  for (const [token, need] of needs) {
    const held = await need.order.balanceOf(token);
    if (held < need.amount) {
      const units = (amount: bigint) => tokenUnits(amount, decimals.get(token) ?? 18);
      throw new TidepoolError(
        `Cannot start compute job: insufficient balance for its orders: ${units(held)} held, ${
          units(need.amount)
        } needed of token ${token}`,
        {
          details: `orders for ${need.what.join(", ")}`,
          detailsLabel: "Needed by",
          hint: `Fund ${need.order.buyer} with ${token}, then start again`,
        },
      );
    }
  }
}

/** A base-unit amount in whole tokens, as a decimal string (`2002000000000000000n` -> `"2.002"`). */
function tokenUnits(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction ? `${amount / scale}.${fraction}` : `${amount / scale}`;
}
