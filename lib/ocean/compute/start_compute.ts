/**
 * A paid compute job: its quote executed in the wallet's lane (every order
 * placed, reused or given), then `startCompute` signed and posted once.
 * When the environment charges through the Escrow, the deposit, the
 * authorization, the start and the authorization set back are in the same
 * lane step (`_escrow_start.ts`).
 *
 * @module
 */

import { priceCap } from "../order/_max_price.ts";
import { SANDBOX_CHAIN_ID } from "../order/_asset_order_types.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { DatatokenOrder } from "../order/_order_types.ts";
import { checksummedSigner } from "../_address.ts";
import { accountOf, executeOnChain } from "../order/_quote_runner.ts";
import { sendStart } from "./_start_answer.ts";
import type { PaidComputeAssetRef } from "./initialize_compute.ts";
import { askEscrowTerms, quoteCompute } from "./quote_compute.ts";
import type { ComputeEnvironmentLimits, ComputeJob } from "./types.ts";
import type {
  ComputeNode,
  ComputeQuote,
  StartComputeParameters,
  StartComputeReturnType,
} from "./_paid_compute_types.ts";

export type {
  ComputeNode,
  ComputeQuote,
  QuoteComputeParameters,
  StartComputeParameters,
  StartComputeReturnType,
} from "./_paid_compute_types.ts";
export type { ComputeEscrowQuote, EscrowAuthorization } from "./_escrow_plan.ts";
export type { EscrowTerms } from "./_escrow_charge.ts";
export type { EscrowSent } from "./_escrow_pay_chain.ts";

/** The body of {@linkcode OceanNode.startCompute}, with the environments already read; documented there. */
export async function startCompute(
  node: ComputeNode,
  parameters: StartComputeParameters,
  environments: readonly ComputeEnvironmentLimits[],
): Promise<StartComputeReturnType> {
  const signer = checksummedSigner(parameters.signer);
  const refs = [parameters.algorithm, ...parameters.datasets];
  const quote = parameters.quote
    ? givenQuote(parameters.quote, parameters, refs)
    : await quoteCompute(node, parameters, environments);
  const payment = quote.payment;
  const account = await accountOf(signer);
  const body = (orders: readonly DatatokenOrder[]) => {
    const withOrders = refs.map((ref, i) => ({ ...ref, transferTxId: orders[i].txHash }));
    return {
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
  };
  const send = (orders: readonly DatatokenOrder[]) =>
    sendStart(node.http, signer, {
      command: "startCompute",
      action: "start a paid compute job",
      path: "/api/services/compute",
      body: body(orders),
      signal: parameters.signal,
    });
  if (quote.escrow) {
    const escrowQuote = quote as ComputeQuote & { escrow: NonNullable<ComputeQuote["escrow"]> };
    // viem loads with the first paid start: importing tidepool should not pay for it.
    const { startWithEscrow } = await import("./_escrow_start.ts");
    const done = await startWithEscrow(
      parameters.rpcUrl,
      account,
      escrowQuote,
      priceCap(parameters.maxPrice),
      {
        terms: () => askEscrowTerms(node, signer.address, parameters, payment),
        start: send,
        failed: (error, orders) => failedAfterPaying(error, refs, orders),
      },
      parameters.signal,
    );
    return {
      jobs: done.jobs,
      orders: { algorithm: done.orders[0], datasets: done.orders.slice(1) },
      escrow: done.escrow,
    };
  }
  if (parameters.quote) await refuseUnquotedCharge(node, signer.address, parameters, payment);
  const orders = await executeOnChain(parameters.rpcUrl, account, quote, {
    maxPrice: priceCap(parameters.maxPrice),
    signal: parameters.signal,
  });
  if (parameters.signal?.aborted) {
    throw failedAfterPaying(
      new TidepoolError(
        "Cannot start compute job: stopped by the signal before the start was signed",
        {
          hint: "Nothing further was sent",
          cause: parameters.signal.reason,
        },
      ),
      refs,
      orders,
    );
  }
  let jobs: ComputeJob[];
  try {
    jobs = await send(orders);
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

/**
 * A quote the user passed must be of this job: the same environment and
 * assets, in order, and one chain throughout. The Escrow is trusted by the
 * chain its payment names and paid on the chain the quote signs for: a
 * quote whose payment named Optimism, started on another chain, deposited
 * 0.75 Ocean into whatever held Optimism's Escrow address there.
 */
function givenQuote(
  quote: ComputeQuote,
  parameters: StartComputeParameters,
  refs: readonly PaidComputeAssetRef[],
): ComputeQuote {
  const chainId = parameters.chainId ?? SANDBOX_CHAIN_ID;
  const chains = [quote?.chainId, quote?.payment?.chainId, quote?.escrow?.chainId ?? chainId];
  if (chains.some((chain) => chain !== chainId)) {
    throw new TidepoolError(
      `Cannot start compute job: the quote given is not for chain ${chainId} throughout`,
      {
        details: `quote: chain ${quote?.chainId}, payment on chain ${quote?.payment?.chainId}${
          quote?.escrow ? `, escrow on chain ${quote.escrow.chainId}` : ""
        }; start: chain ${chainId}`,
        detailsLabel: "Compared",
        hint:
          "Nothing was sent. Pass the quote quoteCompute returned with this rpcUrl and chainId, unchanged",
      },
    );
  }
  const quoted = (quote?.orders ?? []).map((o) => `${o.did} service ${o.serviceId}`);
  const asked = refs.map((ref) => `${ref.documentId} service ${ref.serviceId}`);
  if (quote?.environment !== parameters.environment || quoted.join() !== asked.join()) {
    throw new TidepoolError(
      "Cannot start compute job: the quote given is for another job",
      {
        details: `quote: ${quote?.environment} ${
          quoted.join(", ")
        }; start: ${parameters.environment} ${asked.join(", ")}`,
        detailsLabel: "Compared",
        hint:
          "Nothing was sent. Pass the quote quoteCompute returned for this environment and these assets",
      },
    );
  }
  return quote;
}

/**
 * A given quote without an escrow part is started only if the node still
 * charges nothing through the escrow: a quote stripped of it would let a
 * node lock the job's price under a standing authorization of the payer's,
 * outside the cap. Asked right before the first order.
 */
async function refuseUnquotedCharge(
  node: ComputeNode,
  address: string,
  parameters: StartComputeParameters,
  payment: { chainId: number; token: string },
): Promise<void> {
  const now = await askEscrowTerms(node, address, parameters, payment);
  if (!now) return;
  throw new TidepoolError(
    "Cannot start compute job: the node charges the job through the escrow, and the quote has no escrow part",
    {
      details: `${now.amount} base units of ${now.token} locked by ${now.payee}`,
      detailsLabel: "Node asks",
      hint:
        "Nothing was sent or paid. Quote again with quoteCompute and start with that quote, whose escrow part the cap covers",
    },
  );
}
