/**
 * The plan of one order, read live from the chain: an earlier order to
 * reuse, or how the datatoken is obtained (held, dispensed, bought), what
 * each transaction pays and to whom (the exchange, the provider fee address,
 * the publishing market), and the approvals they need. The datatoken is
 * checked against the chain: it must be an Ocean datatoken, and the exchange
 * must sell that datatoken. Nothing is sent here.
 *
 * @module
 */

import { erc20Abi, getAddress, parseAbi, zeroAddress } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "./_chain_context.ts";
import type { ChainHex, OrderProviderFee } from "./_order_types.ts";
import type { PlannedPayment, PlannedTransaction, QuotedOrder } from "./_quote_types.ts";
import { findValidOrder, REUSE_PAGE_BLOCKS } from "./_reuse_lookup.ts";

const ONE = 10n ** 18n;
export const DATATOKEN_ABI = parseAbi([
  "function getDispensers() view returns (address[])",
  "function getFixedRates() view returns ((address contractAddress, bytes32 id)[])",
  "function getERC721Address() view returns (address)",
  "function getPaymentCollector() view returns (address)",
  "function getPublishingMarketFee() view returns (address, address, uint256)",
  "function startOrder(address consumer, uint256 serviceIndex, (address providerFeeAddress, address providerFeeToken, uint256 providerFeeAmount, uint8 v, bytes32 r, bytes32 s, uint256 validUntil, bytes providerData) _providerFee, (address consumeMarketFeeAddress, address consumeMarketFeeToken, uint256 consumeMarketFeeAmount) _consumeMarketFee)",
]);
export const NFT_ABI = parseAbi([
  "function isDeployed(address datatoken) view returns (bool)",
]);
export const DISPENSER_ABI = parseAbi([
  "function status(address datatoken) view returns (bool active, address owner, bool isMinter, uint256 maxTokens, uint256 maxBalance, uint256 balance, address allowedSwapper)",
  "function dispense(address datatoken, uint256 amount, address destination)",
]);
export const EXCHANGE_ABI = parseAbi([
  "function getExchange(bytes32 exchangeId) view returns (address exchangeOwner, address datatoken, uint256 dtDecimals, address baseToken, uint256 btDecimals, uint256 fixedRate, bool active, uint256 dtSupply, uint256 btSupply, uint256 dtBalance, uint256 btBalance, bool withMint)",
  "function calcBaseInGivenOutDT(bytes32 exchangeId, uint256 datatokenAmount, uint256 consumeMarketSwapFeeAmount) view returns (uint256 baseTokenAmount, uint256 oceanFeeAmount, uint256 publishMarketFeeAmount, uint256 consumeMarketFeeAmount)",
  "function buyDT(bytes32 exchangeId, uint256 datatokenAmount, uint256 maxBaseTokenAmount, address consumeMarketAddress, uint256 consumeMarketSwapFeeAmount)",
]);

/** Gas each kind of transaction may take: generous, so a wallet that passes can pay. */
export const GAS = {
  approve: 70_000n,
  dispense: 150_000n,
  buy: 300_000n,
  startOrder: 400_000n,
} as const;

/** What an order is for. */
export interface OrderTarget {
  /** The asset, when ordering a DDO's service. */
  did?: string;
  /** The service, when ordering a DDO's service. */
  serviceId?: string;
  /** The service's index in the DDO. */
  serviceIndex: number;
  /** The datatoken to order. */
  datatoken: ChainHex;
  /**
   * The data NFT the asset's DID names: the datatoken must be one it
   * deployed, on chain. Absent when the user named the datatoken itself.
   */
  nft?: ChainHex;
  /** Who the order is for. */
  consumer: ChainHex;
  /** The signed provider fee. */
  providerFee: OrderProviderFee;
  /** The service's timeout, for the reuse check; undefined: pay even when an order stands. */
  reuseWithinSeconds?: number;
  /** Blocks per log request of the reuse check. */
  logRangeBlocks?: number;
}

/**
 * What the orders planned so far leave of each allowance (by token and
 * spender, lower case): the orders of one plan share them, so each is
 * planned against what the ones before it leave, not against the chain's
 * figure that all of them would spend.
 */
export type PlanAllowances = Map<string, bigint>;

/**
 * Reads the chain and plans one order. An earlier still-valid order is
 * returned as `reused`, with nothing to send.
 *
 * @param context The buyer's clients.
 * @param target What to order.
 * @param allowances What the orders planned before this one leave of each allowance; updated.
 * @returns The plan.
 */
export async function planOrder(
  context: ChainContext,
  target: OrderTarget,
  allowances: PlanAllowances = new Map(),
): Promise<QuotedOrder> {
  const { reader, buyer } = context;
  const datatoken = getAddress(target.datatoken);
  const base = { ...target, datatoken, consumer: getAddress(target.consumer) };
  const read = <T>(address: ChainHex, functionName: string, args: unknown[] = []) =>
    reader.readContract({
      address,
      abi: [...DATATOKEN_ABI, ...DISPENSER_ABI, ...EXCHANGE_ABI, ...NFT_ABI],
      functionName,
      args,
    } as never) as Promise<T>;
  // An address that is no Ocean datatoken reverts here, before anything else is read.
  const nft = getAddress(await read<ChainHex>(datatoken, "getERC721Address"));
  if (target.nft) await refuseForeignDatatoken(target, nft, read);
  if (target.reuseWithinSeconds !== undefined) {
    const earlier = await findValidOrder(reader, {
      datatoken,
      consumer: base.consumer,
      payer: buyer,
      serviceIndex: target.serviceIndex,
      timeout: target.reuseWithinSeconds,
      now: Math.floor(Date.now() / 1000),
      pageBlocks: target.logRangeBlocks ?? REUSE_PAGE_BLOCKS,
    });
    if (earlier) return { ...base, source: "reused", reused: earlier, transactions: [] };
  }
  checkProviderFee(target.providerFee);
  const collector = getAddress(await read<ChainHex>(datatoken, "getPaymentCollector"));
  const [marketAddress, marketToken, marketAmount] = await read<[ChainHex, ChainHex, bigint]>(
    datatoken,
    "getPublishingMarketFee",
  );

  const transactions: PlannedTransaction[] = [];
  const held = await reader.readContract({
    address: datatoken,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [buyer],
  });
  let source: QuotedOrder["source"] = "held";
  if (held < ONE) {
    const [dispenser] = await read<ChainHex[]>(datatoken, "getDispensers");
    const [exchange] = await read<{ contractAddress: ChainHex; id: ChainHex }[]>(
      datatoken,
      "getFixedRates",
    );
    const dispenserActive = dispenser &&
      (await read<[boolean]>(dispenser, "status", [datatoken]))[0];
    if (dispenserActive) {
      source = "dispenser";
      transactions.push({
        action: "dispense",
        contract: getAddress(dispenser),
        gas: GAS.dispense,
        payments: [],
      });
    } else if (exchange) {
      source = "exchange";
      transactions.push(...await planPurchase(context, datatoken, exchange, read, allowances));
    } else {
      throw new TidepoolError(
        "Cannot order: the datatoken has neither a dispenser nor an exchange",
        { hint: "Obtain one datatoken from the publisher, then order again" },
      );
    }
  }

  const fee = target.providerFee;
  const orderPayments: PlannedPayment[] = [];
  const feeAmount = BigInt(fee.providerFeeAmount);
  if (feeAmount > 0n) {
    orderPayments.push({
      part: "provider fee",
      token: getAddress(fee.providerFeeToken),
      amount: feeAmount,
      payee: getAddress(fee.providerFeeAddress),
    });
  }
  // startOrder skips the publishing market's fee when any of its three parts is empty.
  if (marketAmount > 0n && marketToken !== zeroAddress && marketAddress !== zeroAddress) {
    orderPayments.push({
      part: "publish market fee",
      token: getAddress(marketToken),
      amount: marketAmount,
      payee: getAddress(marketAddress),
    });
  }
  // startOrder takes the market's fee as the datatoken says it when it runs,
  // bounded only by the allowance: exactly what was quoted, then given back.
  // Also in the tokens the order pays nothing to the datatoken in (the price's,
  // a fee's of nothing): a fee raised from nothing would take any allowance there.
  const guarded = [
    ...transactions.flatMap((tx) => tx.payments).map((p) => p.token),
    getAddress(fee.providerFeeToken),
    getAddress(marketToken),
  ].filter((token) => token !== zeroAddress);
  const fees = await approvals(context, orderPayments, datatoken, allowances, "exact", guarded);
  transactions.push(...fees.before, {
    action: "startOrder",
    contract: datatoken,
    gas: GAS.startOrder,
    payments: [
      ...orderPayments,
      { part: "datatoken", token: datatoken, amount: ONE, payee: collector },
    ],
  }, ...fees.after);
  return { ...base, source, transactions };
}

/**
 * Refuses a datatoken that is not the asset's: the DID names a data NFT, and
 * the datatoken must say it belongs to that NFT and the NFT must say it
 * deployed the datatoken (a contract can claim any NFT; only the NFT's
 * factory record is the NFT's own word).
 */
async function refuseForeignDatatoken(
  target: OrderTarget,
  nft: ChainHex,
  read: <T>(address: ChainHex, functionName: string, args?: unknown[]) => Promise<T>,
): Promise<void> {
  const named = getAddress(target.nft!);
  const deployed = nft === named &&
    await read<boolean>(named, "isDeployed", [target.datatoken]).catch(() => false);
  if (deployed) return;
  throw new TidepoolError(
    `Cannot order ${
      target.did ?? target.datatoken
    }: datatoken ${target.datatoken} is not one of the asset's data NFT ${named}`,
    {
      details: nft === named
        ? `the NFT ${named} did not deploy it`
        : `the datatoken belongs to NFT ${nft}`,
      detailsLabel: "Chain said",
      hint:
        "Nothing was sent. The node names a datatoken of another asset; order through another node, or ask the node's operator",
    },
  );
}

/** The approval and the purchase of one datatoken on the fixed-rate exchange. */
async function planPurchase(
  context: ChainContext,
  datatoken: ChainHex,
  exchange: { contractAddress: ChainHex; id: ChainHex },
  read: <T>(address: ChainHex, functionName: string, args?: unknown[]) => Promise<T>,
  allowances: PlanAllowances,
): Promise<PlannedTransaction[]> {
  const contract = getAddress(exchange.contractAddress);
  const details = await read<readonly unknown[]>(contract, "getExchange", [exchange.id]);
  const sold = getAddress(details[1] as ChainHex);
  if (sold !== datatoken) {
    throw new TidepoolError(
      `Cannot order: the datatoken's exchange sells another datatoken (${sold}, not ${datatoken})`,
      { hint: "Nothing was sent. The datatoken's pricing is not what it says; ask the publisher" },
    );
  }
  if (!details[6]) {
    throw new TidepoolError("Cannot order: the datatoken's exchange is not active", {
      hint: "Ask the publisher to reactivate the exchange",
    });
  }
  const baseToken = getAddress(details[3] as ChainHex);
  const [price] = await read<[bigint]>(contract, "calcBaseInGivenOutDT", [exchange.id, ONE, 0n]);
  const payments: PlannedPayment[] = [
    { part: "price", token: baseToken, amount: price, payee: contract },
  ];
  // buyDT takes at most the quoted price (its maxBaseTokenAmount): the approval may add to what the wallet allowed.
  const { before } = await approvals(context, payments, contract, allowances, "add");
  return [...before, { action: "buy", contract, gas: GAS.buy, payments, exchangeId: exchange.id }];
}

/** The largest allowance a token holds. */
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * The approvals `spender` needs to take `payments`, planned so that every
 * allowance the wallet had is, after the order, what it was before (another
 * program's, or one a pending order needs):
 *
 * - `add` (the exchange, whose `buyDT` takes at most the quoted price): the
 *   approval adds what is taken to what the wallet allowed, and the
 *   purchase spends only that;
 * - `exact` (the datatoken, whose `startOrder` takes the market fee the
 *   datatoken says when it runs, with no bound of its own): the allowance is
 *   set to exactly what the order takes, so a fee raised after the last
 *   check cannot take more, and an allowance the wallet had is given back
 *   right after `startOrder` (`after`). `nothingIn`: further tokens the
 *   spender is to take nothing in (set to 0 for `startOrder`, then given
 *   back), so a fee raised from nothing finds no allowance.
 *
 * The allowance read is remembered for the plan's later orders (every order
 * leaves it as it found it), and each approval carries it (`had`): a stop
 * or a failure after the approval sets it back, whatever the spender.
 */
async function approvals(
  context: ChainContext,
  payments: readonly PlannedPayment[],
  spender: ChainHex,
  allowances: PlanAllowances,
  rule: "add" | "exact",
  nothingIn: readonly ChainHex[] = [],
): Promise<{ before: PlannedTransaction[]; after: PlannedTransaction[] }> {
  const byToken = new Map<ChainHex, bigint>();
  for (const { token, amount } of payments) {
    byToken.set(token, (byToken.get(token) ?? 0n) + amount);
  }
  for (const token of nothingIn) byToken.set(token, byToken.get(token) ?? 0n);
  const before: PlannedTransaction[] = [];
  const after: PlannedTransaction[] = [];
  const approve = (token: ChainHex, amount: bigint, had: bigint, restores?: boolean) => ({
    action: "approve" as const,
    contract: token,
    gas: GAS.approve,
    allowance: { token, spender, amount, had, ...(restores ? { restores } : {}) },
    payments: [],
  });
  for (const [token, amount] of byToken) {
    const key = `${token} ${spender}`.toLowerCase();
    const paid = payments.some((p) => p.token === token);
    const had = allowances.get(key) ?? await context.reader.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [context.buyer, spender],
    }).catch((error: unknown) => {
      // A fee of nothing may name an address that is no token (startOrder skips it):
      // it holds no allowance to guard, and it must not stop the order.
      if (paid || (error as Error)?.name !== "ContractFunctionExecutionError") throw error;
      return 0n;
    });
    allowances.set(key, had);
    if (rule === "add") {
      // An allowance too large to add to already covers the purchase.
      if (had + amount <= MAX_UINT256) before.push(approve(token, had + amount, had));
      continue;
    }
    if (had !== amount) before.push(approve(token, amount, had));
    if (had > 0n) after.push(approve(token, had, had, true));
  }
  return { before, after };
}

/**
 * The last second a provider fee may be valid until: 9999-12-31T23:59:59Z.
 * A later one is no time a node means, and past about 8.64e12 seconds it is
 * no date at all (the quote's `validUntil` was an Invalid Date that no
 * expiry check could compare).
 */
export const LAST_DATE_SECONDS = 253_402_300_799;

/**
 * A provider fee is the node's word: its shape is checked before it is
 * planned (a malformed amount or address is refused, not thrown as a
 * TypeError; a `validUntil` that is not whole seconds from 0 to
 * {@linkcode LAST_DATE_SECONDS}), and an expired one, which makes
 * `startOrder` revert, is refused before anything is sent.
 */
export function checkProviderFee(fee: OrderProviderFee): void {
  const address = /^0x[0-9a-fA-F]{40}$/;
  const malformed = [
    !address.test(String(fee?.providerFeeAddress)) && "providerFeeAddress",
    !address.test(String(fee?.providerFeeToken)) && "providerFeeToken",
    !/^[0-9]{1,78}$/.test(String(fee?.providerFeeAmount)) && "providerFeeAmount",
    !(Number.isSafeInteger(fee?.validUntil) && fee.validUntil >= 0 &&
      fee.validUntil <= LAST_DATE_SECONDS) && "validUntil",
  ].filter(Boolean);
  if (malformed.length > 0) {
    throw new TidepoolError(
      `Cannot order: the node's provider fee is malformed (${malformed.join(", ")})`,
      {
        details: JSON.stringify({
          providerFeeAddress: fee?.providerFeeAddress,
          providerFeeToken: fee?.providerFeeToken,
          providerFeeAmount: fee?.providerFeeAmount,
          validUntil: fee?.validUntil,
        }),
        detailsLabel: "Node fee",
        hint: "Nothing was sent. The node sent a fee tidepool cannot pay safely; ask its operator",
      },
    );
  }
  const now = Math.floor(Date.now() / 1000);
  if (fee.validUntil !== 0 && fee.validUntil < now) {
    throw new TidepoolError("Cannot order: the provider fee has expired", {
      details: `valid until ${new Date(fee.validUntil * 1000).toISOString()}`,
      detailsLabel: "Node fee",
      hint: "Call initialize again for a fresh provider fee (quote again), then order",
    });
  }
}
