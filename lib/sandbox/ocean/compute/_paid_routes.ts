/**
 * The paid compute endpoints of the sandbox node: `initializeCompute`
 * (provider fees per asset, and whether a given order is still valid) and
 * `POST /api/services/compute` (a job that runs only on orders checked on
 * chain). Both need the chain; without it no environment takes payment.
 *
 * @module
 */

import type { SandboxEnvironment } from "./trial_environment.ts";
import {
  checkAssets,
  type CheckedAssets,
  checkLimits,
  type Ref,
  signedStartBody,
  startJob,
} from "./_compute_routes.ts";
import { type ComputeContext, json, jsonBody, text } from "./_context.ts";
import { lockJobPrice, paymentTerms } from "./_escrow_payment.ts";

type Payment = { chainId: number; token: string };

/** The environment and the payment it takes, or the node's 400. */
function paidEnvironment(
  context: ComputeContext,
  body: Record<string, unknown>,
): { environment: SandboxEnvironment; payment: Payment } | Response {
  const environment = context.environments.find((env) => env.id === body.environment);
  if (!environment) return text(400, "Invalid C2D Environment");
  const payment = body.payment as Partial<Payment> | undefined;
  if (!payment?.chainId || !payment.token) return text(400, "Invalid payment options");
  const fees = environment.fees?.[String(payment.chainId)] ?? [];
  if (!fees.some((fee) => fee.feeToken.toLowerCase() === String(payment.token).toLowerCase())) {
    return text(
      400,
      `This compute env does not accept payments on chain: ${payment.chainId} using token ${payment.token}`,
    );
  }
  return { environment, payment: { chainId: Number(payment.chainId), token: payment.token } };
}

/** POST /api/services/initializeCompute */
export async function initializeComputeHandler(
  context: ComputeContext,
  request: Request,
): Promise<Response> {
  const body = await jsonBody(request);
  if (!body) return text(400, "Invalid JSON body");
  for (const field of ["datasets", "algorithm", "payment", "consumerAddress", "environment"]) {
    if (body[field] === undefined) return text(400, `Missing required parameter: ${field}`);
  }
  const paid = paidEnvironment(context, body);
  if (paid instanceof Response) return paid;
  const assets = checkAssets(context, body);
  if (assets instanceof Response) return assets;
  const chain = context.chain;
  if (!chain) return text(400, "Initialize Compute: the node is connected to no chain");
  const { environment } = paid;
  const now = Math.floor(Date.now() / 1000);
  const terms = [];
  for (const ref of [assets.algorithm, ...assets.datasets]) {
    const did = String(ref.documentId);
    const serviceId = String(ref.serviceId);
    const ddo = context.asset(did);
    const service = ddo?.services.find((s) => s.id === serviceId);
    if (!ddo || !service) return text(400, `Cannot find service ${serviceId} in DDO ${did}`);
    const result: Record<string, unknown> = {
      did,
      serviceId,
      datatoken: service.datatokenAddress,
      chainId: paid.payment.chainId,
      consumerAddress: environment.consumerAddress,
      validOrder: false,
    };
    if (typeof ref.transferTxId === "string") {
      const verdict = await chain.checkOrder({
        txId: ref.transferTxId,
        did,
        serviceId,
        consumer: environment.consumerAddress,
        payer: String(body.consumerAddress),
      });
      if (verdict.valid) result.validOrder = ref.transferTxId;
    }
    if (result.validOrder === false) {
      const timeout = Number(service.timeout ?? 0);
      const validUntil = context.faults.expiredProviderFees
        ? now - 60
        : now + (timeout > 0 ? timeout : 86_400);
      const answer = await chain.initialize({
        did,
        serviceId,
        consumer: environment.consumerAddress,
        validUntil,
        environment: environment.id,
      }) as { providerFee?: unknown; error?: string };
      if (answer.error) return text(400, answer.error);
      result.providerFee = answer.providerFee;
    }
    terms.push(result);
  }
  if (context.faults.reversedComputeTerms) terms.reverse();
  const payment = paymentTerms(context, environment, paid.payment, checkLimits(environment, body));
  if (payment instanceof Response) return payment;
  return json(200, { algorithm: terms[0], datasets: terms.slice(1), payment });
}

/** POST /api/services/compute */
export async function paidComputeHandler(
  context: ComputeContext,
  request: Request,
): Promise<Response> {
  const body = await signedStartBody(context, request, ["payment"], "startCompute");
  if (body instanceof Response) return body;
  const paid = paidEnvironment(context, body);
  if (paid instanceof Response) return paid;
  const { environment, payment } = paid;
  const owner = String(body.consumerAddress);
  const allowed = environment.access.addresses;
  if (allowed.length > 0 && !allowed.some((a) => a.toLowerCase() === owner.toLowerCase())) {
    return json(403, `Address ${owner} is not allowed to run compute jobs in this environment`);
  }
  const assets = checkAssets(context, body);
  if (assets instanceof Response) return assets;
  const limits = checkLimits(environment, body);
  if (limits instanceof Response) return limits;
  const orders = await checkOrders(context, assets, environment, owner);
  if (orders instanceof Response) return orders;
  // As ocean-node: the job's id first, its price locked under it, then the job.
  const jobId = context.engine.newJobId();
  const escrow = await lockJobPrice(context, environment, payment, limits, owner, jobId);
  if (escrow instanceof Response) return escrow;
  return startJob(
    context,
    body,
    environment.id,
    assets,
    limits,
    { ...payment, orders, escrow },
    jobId,
  );
}

/** Each asset's order, checked on chain as ocean-node does, or the node's refusal. */
async function checkOrders(
  context: ComputeContext,
  assets: CheckedAssets,
  environment: SandboxEnvironment,
  owner: string,
): Promise<string[] | Response> {
  if (!context.chain) return text(400, "Start Compute: the node is connected to no chain");
  const orders: string[] = [];
  for (const ref of [assets.algorithm, ...assets.datasets] as Ref[]) {
    const did = String(ref.documentId);
    if (typeof ref.transferTxId !== "string" || ref.transferTxId === "") {
      return text(400, `Missing transferTxId for DDO ${did}`);
    }
    const verdict = await context.chain.checkOrder({
      txId: ref.transferTxId,
      did,
      serviceId: String(ref.serviceId),
      consumer: environment.consumerAddress,
      payer: owner,
    });
    if (!verdict.valid) {
      return text(
        400,
        `TxId Service ${ref.transferTxId} is not valid for DDO ${did} and service ${
          String(ref.serviceId)
        }: ${verdict.reason}`,
      );
    }
    orders.push(ref.transferTxId);
  }
  return orders;
}
