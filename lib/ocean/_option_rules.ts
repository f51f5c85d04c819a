/**
 * The options and parameters each public Ocean call takes, as checked at its
 * door by `checkOptions`: what is not listed is refused with a did-you-mean,
 * and what is required must be given, before any request or transaction.
 * Shapes checked further where they are read (asset references, fees,
 * `maxPrice`) are "any" or "object" here.
 *
 * @module
 */

import { callChecker, type CallRules, type OptionRules } from "../options/check_options.ts";
import { POLL_RULES } from "../http/options.ts";

const COMPUTE_START: OptionRules = {
  environment: "string",
  algorithm: "object",
  datasets: "any",
  resources: "any",
  maxJobDuration: "number",
  output: "object",
  metadata: "object",
  additionalViewers: "strings",
  signal: "signal",
};

const PAID_COMPUTE: OptionRules = {
  ...COMPUTE_START,
  signer: "object",
  rpcUrl: "string",
  chainId: "integer",
  paymentToken: "string",
  maxPrice: "any",
  escrowAddress: "string",
  maxLockSeconds: "integer",
  force: "boolean",
  logRangeBlocks: "integer",
};

const JOBS: OptionRules = {
  jobId: "string",
  agreementId: "string",
  includeMetrics: "boolean",
  token: "object",
  signal: "signal",
};

const QUOTE_ORDER: OptionRules = {
  did: "string",
  serviceId: "string",
  signer: "object",
  rpcUrl: "string",
  chainId: "integer",
  maxPrice: "any",
  force: "boolean",
  logRangeBlocks: "integer",
  consumer: "string",
  providerFee: "object",
};

const ORDER_ASSET: OptionRules = { ...QUOTE_ORDER, quote: "object", signal: "signal" };

const ORDER_DATATOKEN: CallRules = {
  rules: {
    rpcUrl: "string",
    chainId: "integer",
    account: "object",
    datatoken: "string",
    serviceIndex: "integer",
    consumer: "string",
    providerFee: "object",
    reuseWithinSeconds: "number",
    logRangeBlocks: "integer",
    maxPrice: "any",
    signal: "signal",
  },
  required: ["rpcUrl", "account", "datatoken", "serviceIndex", "providerFee"],
};

/** The rules of each call, by the name its errors give it. */
const OCEAN_CALL_RULES = {
  "OceanNode.waitForIndexed": { rules: POLL_RULES, required: [] },
  "OceanNode.waitForJob": { rules: POLL_RULES, required: [] },
  "OceanNode.assetsTable": { rules: { strict: "boolean" }, required: [] },
  "OceanNode.startFreeCompute": {
    rules: { ...COMPUTE_START, signer: "object", chainId: "integer" },
    required: ["signer", "environment", "algorithm", "datasets"],
  },
  "OceanNode.initializeCompute": {
    rules: {
      consumer: ["string", "object"],
      environment: "string",
      algorithm: "object",
      datasets: "any",
      payment: "object",
      maxJobDuration: "number",
      resources: "any",
      signal: "signal",
    },
    required: ["consumer", "environment", "algorithm", "datasets", "payment"],
  },
  "OceanNode.quoteCompute": {
    rules: PAID_COMPUTE,
    required: ["signer", "environment", "algorithm", "datasets", "rpcUrl"],
  },
  "OceanNode.startCompute": {
    rules: { ...PAID_COMPUTE, quote: "object" },
    required: ["signer", "environment", "algorithm", "datasets", "rpcUrl"],
  },
  "OceanNode.jobs": { rules: JOBS, required: [] },
  "OceanNode.createAuthToken": {
    rules: { signer: "object", validUntil: "any", chainId: "integer", signal: "signal" },
    required: ["signer"],
  },
  "OceanNode.jobResults": { rules: JOBS, required: [] },
  "OceanNode.downloadResults": {
    rules: {
      signer: "object",
      dir: "string",
      types: "strings",
      maxBytes: "integer",
      signal: "signal",
    },
    required: ["signer", "dir"],
  },
  "OceanNode.job": { rules: { signal: "signal" }, required: [] },
  "OceanNode.stopCompute": {
    rules: { signer: "object", signal: "signal" },
    required: ["signer"],
  },
  "OceanNode.computeLogs": {
    rules: { signer: "object", idleTimeoutMs: "integer", signal: "signal" },
    required: ["signer"],
  },
  "OceanNode.resultText": {
    rules: { signer: "object", maxBytes: "number", signal: "signal" },
    required: ["signer"],
  },
  "OceanNode.initialize": {
    rules: {
      did: "string",
      serviceId: "string",
      consumer: "string",
      validUntil: "number",
      signal: "signal",
    },
    required: ["did", "serviceId", "consumer"],
  },
  "OceanNode.download": {
    rules: {
      did: "string",
      serviceId: "string",
      txId: "string",
      signer: "object",
      dir: "string",
      fileIndex: "integer",
      userdata: "object",
      verify: "boolean",
      maxBytes: "integer",
      signal: "signal",
    },
    required: ["did", "serviceId", "txId", "signer", "dir"],
  },
  "OceanNode.encrypt": { rules: { signer: "object", signal: "signal" }, required: ["signer"] },
  "OceanNode.decrypt": {
    rules: {
      signer: "object",
      chainId: "integer",
      encryptedDocument: "string",
      flags: "integer",
      documentHash: "string",
      dataNftAddress: "string",
      transactionId: "string",
      signal: "signal",
    },
    required: ["signer", "chainId"],
  },
  "OceanNode.validateDdo": { rules: { signer: "object", signal: "signal" }, required: [] },
  quoteOrder: { rules: QUOTE_ORDER, required: ["did", "serviceId", "signer", "rpcUrl"] },
  orderAsset: { rules: ORDER_ASSET, required: ["did", "serviceId", "signer", "rpcUrl"] },
  downloadAsset: {
    rules: { ...ORDER_ASSET, dir: "string", verify: "boolean" },
    required: ["did", "serviceId", "signer", "rpcUrl", "dir"],
  },
  orderDatatoken: ORDER_DATATOKEN,
  prepareOrder: ORDER_DATATOKEN,
  ordersWithAssets: { rules: { columns: "strings" }, required: [] },
  signRequest: { rules: { nonce: "string" }, required: ["nonce"] },
} as const satisfies Record<string, CallRules>;

/** Checks the options of one Ocean call at its door, by the name the user wrote (`OceanNode.jobs`, `orderAsset`). */
export const checkCall = callChecker(OCEAN_CALL_RULES);
