/**
 * What a paid compute job will send and pay before anything is signed: the
 * node's `initializeCompute` terms and the chain, read live, as one quote of
 * the algorithm's and every dataset's order.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { CacheMode } from "../../http/cache.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner } from "../_address.ts";
import { SANDBOX_CHAIN_ID } from "../order/_asset_order_types.ts";
import { assetQuoteItem } from "../order/_asset_quote_item.ts";
import { priceCap } from "../order/_max_price.ts";
import { onChain } from "../order/_chain_errors.ts";
import { refusePaymentInReplay, refuseStopped } from "../order/_payment_mode.ts";
import type { QuoteItem } from "../order/_quote_reads.ts";
import { accountOf, quoteOnChain } from "../order/_quote_runner.ts";
import type { ChainHex } from "../order/_order_types.ts";
import { precheckPaidCompute } from "./_paid_precheck.ts";
import { type EscrowTerms, escrowTermsOf } from "./_escrow_charge.ts";
import { trustedEscrow } from "./_trusted_escrow.ts";
import type { ComputeNode, ComputeQuote, QuoteComputeParameters } from "./_paid_compute_types.ts";
import type {
  ComputeAssetTerms,
  InitializeComputeReturnType,
  PaidComputeAssetRef,
} from "./initialize_compute.ts";
import type { ComputeEnvironmentLimits } from "./types.ts";

/**
 * Refuses a paid job in replay mode, before any request.
 *
 * @param http The node's client.
 */
export function refuseComputeInReplay(
  http: { cacheMode: CacheMode },
  signal?: AbortSignal,
): void {
  refusePaymentInReplay("start a paid compute job", http.cacheMode);
  refuseStopped(signal, "start a paid compute job");
}

/** The body of {@linkcode OceanNode.quoteCompute}, with the environments already read; documented there. */
export async function quoteCompute(
  node: ComputeNode,
  parameters: QuoteComputeParameters,
  environments: readonly ComputeEnvironmentLimits[],
): Promise<ComputeQuote> {
  refuseComputeInReplay(node.http, parameters.signal);
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
  const terms = await askTerms(node, signer.address, parameters, payment);
  const escrowTerms = escrowTermsOf(terms, await escrowAsked(parameters, payment));
  const refs = [parameters.algorithm, ...parameters.datasets];
  const assetTerms = matchTerms(refs, terms);
  const account = await accountOf(signer);
  const items: QuoteItem[] = [];
  for (const [i, ref] of refs.entries()) {
    items.push(await quoteItem(node, signer, parameters, ref, assetTerms[i], chainId));
  }
  const maxPrice = priceCap(parameters.maxPrice);
  const quote = await quoteOnChain(parameters.rpcUrl, chainId, account, items, maxPrice);
  if (!escrowTerms) return Object.assign(quote, { environment: parameters.environment, payment });
  // viem loads with the first paid quote: importing tidepool should not pay for it.
  const { quoteEscrow, withEscrowTables } = await import("./_escrow_quote.ts");
  const escrow = await quoteEscrow(parameters.rpcUrl, account, escrowTerms, quote, maxPrice);
  return Object.assign(quote, withEscrowTables(quote, escrow), {
    environment: parameters.environment,
    payment,
    escrow,
  });
}

/** The longest escrow lock taken without `maxLockSeconds`: 7 days. */
export const DEFAULT_MAX_LOCK_SECONDS = 7 * 24 * 3600;

/**
 * What a node's escrow terms are checked against: the payment asked, the
 * Escrow trusted on its chain, and the longest lock the caller allows.
 *
 * @param parameters The job's parameters (`escrowAddress`, `maxLockSeconds`).
 * @param payment The chain and token of the payment.
 * @returns The terms' bounds.
 */
export async function escrowAsked(
  parameters: Pick<QuoteComputeParameters, "escrowAddress" | "maxLockSeconds">,
  payment: { chainId: number; token: string },
): Promise<Parameters<typeof escrowTermsOf>[1]> {
  const maxLockSeconds = parameters.maxLockSeconds ?? DEFAULT_MAX_LOCK_SECONDS;
  if (!Number.isSafeInteger(maxLockSeconds) || maxLockSeconds <= 0) {
    throw new TidepoolError(`Invalid maxLockSeconds: ${String(maxLockSeconds).slice(0, 40)}`, {
      hint: "Give the longest escrow lock you accept, a positive whole number of seconds",
    });
  }
  const trusted = await trustedEscrow(payment.chainId, parameters.escrowAddress);
  return { ...payment, trustedEscrow: trusted, maxLockSeconds };
}

/**
 * The node's terms of the job (`initializeCompute`): asked for the quote,
 * and again right before paying.
 *
 * @param node The node.
 * @param consumer The payer's address.
 * @param parameters The job.
 * @param payment The chain and token of the payment.
 * @returns The node's answer.
 */
export function askTerms(
  node: ComputeNode,
  consumer: string,
  parameters: QuoteComputeParameters,
  payment: { chainId: number; token: string },
): Promise<InitializeComputeReturnType> {
  return node.initializeCompute({
    consumer,
    environment: parameters.environment,
    algorithm: parameters.algorithm,
    datasets: parameters.datasets,
    payment,
    maxJobDuration: parameters.maxJobDuration,
    resources: parameters.resources,
    signal: parameters.signal,
  });
}

/**
 * The node's escrow terms of the job, asked again and checked against the
 * caller's trust and bounds: what the start compares with its quote.
 *
 * @param node The node.
 * @param consumer The payer's address.
 * @param parameters The job.
 * @param payment The chain and token of the payment.
 * @returns The checked terms, or undefined when the node charges nothing through the escrow.
 */
export async function askEscrowTerms(
  node: ComputeNode,
  consumer: string,
  parameters: QuoteComputeParameters,
  payment: { chainId: number; token: string },
): Promise<EscrowTerms | undefined> {
  return escrowTermsOf(
    await askTerms(node, consumer, parameters, payment),
    await escrowAsked(parameters, payment),
  );
}

/** An order for one asset: the one given, the one the node found valid, or one to plan. */
async function quoteItem(
  node: ComputeNode,
  signer: Signer,
  parameters: QuoteComputeParameters,
  ref: PaidComputeAssetRef,
  terms: ComputeAssetTerms,
  chainId: number,
): Promise<QuoteItem> {
  const given = ref.transferTxId ??
    (typeof terms.validOrder === "string" ? terms.validOrder : undefined);
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
    const { minedBlock } = await import("../order/_reuse_lookup.ts");
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
    return {
      did: ref.documentId,
      serviceId: ref.serviceId,
      serviceIndex: 0,
      datatoken: (terms.datatoken ?? "0x0000000000000000000000000000000000000000") as ChainHex,
      consumer: signer.address as ChainHex,
      providerFee: terms.providerFee as never,
      given: {
        txHash: given as ChainHex,
        blockNumber: block,
        pricePaid: "0",
        source: "reused",
        paid: [],
        transactions: [],
      },
    };
  }
  if (!terms.providerFee || !terms.consumerAddress) {
    throw new TidepoolError(
      `Cannot start compute job: initializeCompute gave no provider fee for ${ref.documentId}`,
      { hint: "Check that the asset's compute service is served by this node" },
    );
  }
  return await assetQuoteItem(node, ref.documentId, ref.serviceId, signer.address, {
    rpcUrl: parameters.rpcUrl,
    chainId,
    force: parameters.force,
    logRangeBlocks: parameters.logRangeBlocks,
    consumer: terms.consumerAddress,
    providerFee: terms.providerFee,
    datatoken: terms.datatoken,
  });
}

/**
 * Each asset's terms, found by `did` and `serviceId` rather than by
 * position: a node answering in another order would otherwise have one
 * asset ordered with another's provider fee, refused only after paying.
 * An answer that does not name an asset (or names it twice) is refused
 * before anything is sent (see docs/ASSUMPTIONS.md).
 */
function matchTerms(
  refs: readonly PaidComputeAssetRef[],
  terms: InitializeComputeReturnType,
): ComputeAssetTerms[] {
  const answered = [terms.algorithm, ...(terms.datasets ?? [])].filter(
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
