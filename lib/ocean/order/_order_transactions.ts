/**
 * The viem side of ordering (loaded with the first order, never with
 * tidepool): reads the datatoken's dispenser or fixed-rate exchange, checks
 * price and balances, and sends the approvals, the purchase and `startOrder`.
 * The public entry points and types are in `order_datatoken.ts`.
 *
 * @module
 */

import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatUnits,
  getAddress,
  http,
  parseAbi,
  parseUnits,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from "viem";
import type { LocalAccount } from "viem/accounts";
import type {
  ChainHex,
  DatatokenOrder,
  OrderDatatokenParameters,
  PreparedOrder,
} from "./_order_types.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { inTransactionLane } from "./_transaction_lane.ts";

const ONE = 10n ** 18n;
const DATATOKEN_ABI = parseAbi([
  "function getDispensers() view returns (address[])",
  "function getFixedRates() view returns ((address contractAddress, bytes32 id)[])",
  "function startOrder(address consumer, uint256 serviceIndex, (address providerFeeAddress, address providerFeeToken, uint256 providerFeeAmount, uint8 v, bytes32 r, bytes32 s, uint256 validUntil, bytes providerData) _providerFee, (address consumeMarketFeeAddress, address consumeMarketFeeToken, uint256 consumeMarketFeeAmount) _consumeMarketFee)",
]);
const ORDER_STARTED = parseAbi([
  "event OrderStarted(address indexed consumer, address payer, uint256 amount, uint256 serviceIndex, uint256 timestamp, address indexed publishMarketAddress, uint256 blockNumber)",
])[0];
const DISPENSER_ABI = parseAbi([
  "function status(address datatoken) view returns (bool active, address owner, bool isMinter, uint256 maxTokens, uint256 maxBalance, uint256 balance, address allowedSwapper)",
  "function dispense(address datatoken, uint256 amount, address destination)",
]);
const EXCHANGE_ABI = parseAbi([
  "function getExchange(bytes32 exchangeId) view returns (address exchangeOwner, address datatoken, uint256 dtDecimals, address baseToken, uint256 btDecimals, uint256 fixedRate, bool active, uint256 dtSupply, uint256 btSupply, uint256 dtBalance, uint256 btBalance, bool withMint)",
  "function calcBaseInGivenOutDT(bytes32 exchangeId, uint256 datatokenAmount, uint256 consumeMarketSwapFeeAmount) view returns (uint256 baseTokenAmount, uint256 oceanFeeAmount, uint256 publishMarketFeeAmount, uint256 consumeMarketFeeAmount)",
  "function buyDT(bytes32 exchangeId, uint256 datatokenAmount, uint256 maxBaseTokenAmount, address consumeMarketAddress, uint256 consumeMarketSwapFeeAmount)",
]);

/** The body of `prepareOrder` (order_datatoken.ts), documented there. */
export async function prepareOrder(parameters: OrderDatatokenParameters): Promise<PreparedOrder> {
  const { serviceIndex, providerFee } = parameters;
  // The parameters' own account type is the part of viem's local account ordering uses.
  const account = parameters.account as unknown as LocalAccount;
  const chain = defineChain({
    id: parameters.chainId ?? 31337,
    name: "order chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [parameters.rpcUrl] } },
  });
  const transport = http(parameters.rpcUrl);
  const reader = createPublicClient({ chain, transport, pollingInterval: 50 });
  const wallet = createWalletClient({ chain, transport, account, pollingInterval: 50 });
  const datatoken = getAddress(parameters.datatoken);
  const buyer = account.address;
  const consumer = getAddress(parameters.consumer ?? buyer);

  const now = Math.floor(Date.now() / 1000);
  /** The transactions this order sent, in order: what a failure after paying names. */
  const sent: { functionName: string; hash?: ChainHex }[] = [];
  const send = async (address: ChainHex, abi: Abi, functionName: string, args: unknown[]) => {
    // Noted before sending: a call the chain refuses before mining (its gas estimate reverts) has no hash.
    const tx: { functionName: string; hash?: ChainHex } = { functionName };
    sent.push(tx);
    const hash = await wallet.writeContract({ address, abi, functionName, args, chain, account });
    tx.hash = hash;
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") {
      throw new TidepoolError(`Cannot order: ${functionName} reverted`, {
        details: `transaction ${hash}`,
        detailsLabel: "Chain said",
        hint: "Check the datatoken's pricing and your balances, then try again",
      });
    }
    return receipt;
  };
  const balanceOf = (token: ChainHex) =>
    reader.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [buyer],
    });
  const approveExactly = async (token: ChainHex, spender: ChainHex, amount: bigint) => {
    if (amount === 0n) return;
    const allowance = await reader.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [buyer, spender],
    });
    if (allowance < amount) await send(token, erc20Abi, "approve", [spender, amount]);
  };
  const feeToken = getAddress(providerFee.providerFeeToken);
  const feeAmount = BigInt(providerFee.providerFeeAmount);

  if (parameters.reuseWithinSeconds !== undefined) {
    const earlier = await findValidOrder(reader, {
      datatoken,
      consumer,
      payer: buyer,
      serviceIndex,
      timeout: parameters.reuseWithinSeconds,
      now,
      pageBlocks: parameters.logRangeBlocks ?? REUSE_PAGE_BLOCKS,
    });
    if (earlier) {
      return {
        source: "reused",
        price: 0n,
        priceDecimals: 18,
        feeToken,
        feeAmount: 0n,
        buyer,
        balanceOf,
        send: () => Promise.resolve(earlier),
      };
    }
  }

  if (providerFee.validUntil !== 0 && providerFee.validUntil < now) {
    throw new TidepoolError("Cannot order: the provider fee has expired", {
      details: `valid until ${new Date(providerFee.validUntil * 1000).toISOString()}`,
      detailsLabel: "Node fee",
      hint: "Call initialize again for a fresh provider fee, then order",
    });
  }

  let source: DatatokenOrder["source"] = "held";
  /** Gas the order's transactions may take, for the check of the native balance. */
  let gasNeeded = GAS.approve + GAS.startOrder;
  let pricePaid = 0n;
  let priceDecimals = 18;
  let payment: (() => Promise<unknown>) | undefined;
  let baseToken: ChainHex | undefined;
  if ((await balanceOf(datatoken)) < ONE) {
    const dispensers = await reader.readContract({
      address: datatoken,
      abi: DATATOKEN_ABI,
      functionName: "getDispensers",
    });
    const exchanges = await reader.readContract({
      address: datatoken,
      abi: DATATOKEN_ABI,
      functionName: "getFixedRates",
    });
    const dispenser = dispensers[0];
    const exchange = exchanges[0];
    const dispenserActive = dispenser &&
      (await reader.readContract({
        address: dispenser,
        abi: DISPENSER_ABI,
        functionName: "status",
        args: [datatoken],
      }))[0];
    if (dispenserActive) {
      source = "dispenser";
      gasNeeded += GAS.dispense;
      payment = () => send(dispenser, DISPENSER_ABI, "dispense", [datatoken, ONE, buyer]);
    } else if (exchange) {
      source = "exchange";
      const details = await reader.readContract({
        address: exchange.contractAddress,
        abi: EXCHANGE_ABI,
        functionName: "getExchange",
        args: [exchange.id],
      });
      baseToken = getAddress(details[3]);
      const decimals = Number(details[4]);
      priceDecimals = decimals;
      if (!details[6]) {
        throw new TidepoolError("Cannot order: the datatoken's exchange is not active", {
          hint: "Ask the publisher to reactivate the exchange",
        });
      }
      const [price] = await reader.readContract({
        address: exchange.contractAddress,
        abi: EXCHANGE_ABI,
        functionName: "calcBaseInGivenOutDT",
        args: [exchange.id, ONE, 0n],
      });
      if (parameters.maxPrice !== undefined && price > parseUnits(parameters.maxPrice, decimals)) {
        throw new TidepoolError(
          `Cannot order: the price ${
            formatUnits(price, decimals)
          } is above maxPrice ${parameters.maxPrice}`,
          { hint: "Raise maxPrice if you accept this price" },
        );
      }
      const needed = price + (feeToken === baseToken ? feeAmount : 0n);
      const held = await balanceOf(baseToken);
      if (held < needed) {
        throw new TidepoolError(
          `Cannot order: insufficient balance: ${formatUnits(held, decimals)} held, ${
            formatUnits(needed, decimals)
          } needed`,
          { hint: `Fund ${buyer} with the exchange's base token ${baseToken}` },
        );
      }
      pricePaid = price;
      gasNeeded += GAS.approve + GAS.buy;
      const exchangeAddress = exchange.contractAddress;
      const paidIn = baseToken;
      payment = async () => {
        await approveExactly(paidIn, exchangeAddress, price);
        await send(exchangeAddress, EXCHANGE_ABI, "buyDT", [
          exchange.id,
          ONE,
          price,
          zeroAddress,
          0n,
        ]);
      };
    } else {
      throw new TidepoolError(
        "Cannot order: the datatoken has neither a dispenser nor an exchange",
        {
          hint: "Obtain one datatoken from the publisher, then order again",
        },
      );
    }
  }
  if (feeAmount > 0n && feeToken !== baseToken) {
    const held = await balanceOf(feeToken);
    if (held < feeAmount) {
      throw new TidepoolError("Cannot order: insufficient balance for the provider fee", {
        hint: `Fund ${buyer} with ${providerFee.providerFeeAmount} base units of ${feeToken}`,
      });
    }
  }
  return {
    source,
    price: pricePaid,
    baseToken,
    priceDecimals,
    feeToken,
    feeAmount,
    buyer,
    balanceOf,
    send: () =>
      inTransactionLane(chain.id, buyer, async () => {
        // Funds are read again in the lane: orders prepared together each saw the whole balance.
        await checkFunds({
          reader,
          balanceOf,
          buyer,
          needs: [
            ...(payment && baseToken ? [{ token: baseToken, amount: pricePaid }] : []),
            { token: feeToken, amount: feeAmount },
          ],
          decimals: priceDecimals,
          gas: gasNeeded,
        });
        await payment?.();
        const paid = sent.length;
        try {
          await approveExactly(feeToken, datatoken, feeAmount);
          const receipt = await send(datatoken, DATATOKEN_ABI, "startOrder", [
            consumer,
            BigInt(serviceIndex),
            {
              providerFeeAddress: getAddress(providerFee.providerFeeAddress),
              providerFeeToken: feeToken,
              providerFeeAmount: feeAmount,
              v: providerFee.v,
              r: providerFee.r as ChainHex,
              s: providerFee.s as ChainHex,
              validUntil: BigInt(providerFee.validUntil),
              providerData: providerFee.providerData as ChainHex,
            },
            {
              consumeMarketFeeAddress: zeroAddress,
              consumeMarketFeeToken: zeroAddress,
              consumeMarketFeeAmount: 0n,
            },
          ]);
          return {
            txHash: receipt.transactionHash,
            blockNumber: receipt.blockNumber,
            pricePaid: formatUnits(pricePaid, priceDecimals),
            source,
          };
        } catch (error) {
          if (paid === 0) throw error;
          throw failedAfterPayment(error, sent, paid, datatoken, source);
        }
      }),
  };
}

/** Gas each kind of transaction may take: generous, so a wallet that passes can pay. */
const GAS = { approve: 70_000n, dispense: 150_000n, buy: 300_000n, startOrder: 400_000n };

/**
 * Refuses an order the wallet cannot pay before anything is sent: each
 * token's amount, and gas for every transaction at the current gas price,
 * with the amounts held and needed.
 */
async function checkFunds(check: {
  reader: ReturnType<typeof createPublicClient>;
  balanceOf: (token: ChainHex) => Promise<bigint>;
  buyer: ChainHex;
  needs: { token: ChainHex; amount: bigint }[];
  decimals: number;
  gas: bigint;
}): Promise<void> {
  const byToken = new Map<ChainHex, bigint>();
  for (const { token, amount } of check.needs) {
    if (amount > 0n) byToken.set(token, (byToken.get(token) ?? 0n) + amount);
  }
  for (const [token, needed] of byToken) {
    const held = await check.balanceOf(token);
    if (held < needed) {
      throw new TidepoolError(
        `Cannot order: insufficient balance: ${formatUnits(held, check.decimals)} held, ${
          formatUnits(needed, check.decimals)
        } needed`,
        { hint: `Fund ${check.buyer} with ${token}; nothing was sent` },
      );
    }
  }
  const gasPrice = await check.reader.getGasPrice();
  const gasCost = check.gas * gasPrice;
  const native = await check.reader.getBalance({ address: check.buyer });
  if (native < gasCost) {
    throw new TidepoolError(
      `Cannot order: not enough of the chain's native token for gas: ${
        formatUnits(native, 18)
      } held, up to ${formatUnits(gasCost, 18)} needed at the current gas price`,
      { hint: `Fund ${check.buyer} with the chain's native token; nothing was sent` },
    );
  }
}

/**
 * The error of an order that failed after its payment went through: the
 * payment's transactions and the failed one, and how to recover (the
 * datatoken is held, so ordering again does not pay again).
 */
function failedAfterPayment(
  error: unknown,
  sent: readonly { functionName: string; hash?: ChainHex }[],
  paid: number,
  datatoken: ChainHex,
  source: DatatokenOrder["source"],
): TidepoolError {
  const named = (tx: { functionName: string; hash?: ChainHex }) =>
    `${tx.functionName} ${tx.hash ?? "(refused before it was mined)"}`;
  const payment = sent.slice(0, paid).map(named);
  const after = sent.slice(paid).map(named);
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new TidepoolError(
    `Cannot order: ${
      source === "exchange" ? "the payment went through" : "the datatoken was dispensed"
    } but the order failed: ${reason}`,
    {
      details: `${source === "exchange" ? "paid" : "dispensed"}: ${payment.join(", ")}; then: ${
        after.join(", ") || "nothing was sent"
      }`,
      detailsLabel: "Transactions",
      hint:
        `The datatoken ${datatoken} is in your wallet: order again (a fresh provider fee if it expired) and it is used without paying again; or transfer it back to the publisher for a refund`,
      cause: error,
    },
  );
}

/**
 * Blocks per `getLogs` request when looking for an order to reuse: RPC
 * providers commonly refuse wider ranges.
 */
const REUSE_PAGE_BLOCKS = 10_000;

/**
 * The newest order of `consumer` paid by `payer` for this service that has
 * not expired, read from OrderStarted logs backwards from the latest block,
 * one page of `pageBlocks` ({@linkcode REUSE_PAGE_BLOCKS} by default) at a time. Only the window an
 * order can still be valid in is read: the service's timeout back from the
 * latest block (or the clock, if earlier); a timeout of 0 never expires, so
 * every page back to block 0.
 */
async function findValidOrder(
  reader: ReturnType<typeof createPublicClient>,
  query: {
    datatoken: ChainHex;
    consumer: ChainHex;
    payer: ChainHex;
    serviceIndex: number;
    timeout: number;
    now: number;
    pageBlocks: number;
  },
): Promise<DatatokenOrder | undefined> {
  if (!Number.isInteger(query.pageBlocks) || query.pageBlocks < 1) {
    throw new TidepoolError(
      `Cannot order: logRangeBlocks must be a whole number of blocks, at least 1`,
      {
        details: String(query.pageBlocks),
        detailsLabel: "Given",
        hint: "Leave it out for 10,000, or give the range your RPC provider allows",
      },
    );
  }
  const page = BigInt(query.pageBlocks);
  const latest = await reader.getBlock({ blockTag: "latest" });
  const latestNumber = latest.number ?? 0n;
  const oldestUseful = query.timeout === 0
    ? undefined
    : Math.min(query.now, Number(latest.timestamp)) - query.timeout;
  for (let to = latestNumber; to >= 0n; to -= page) {
    const from = to - page + 1n > 0n ? to - page + 1n : 0n;
    const logs = await reader.getLogs({
      address: query.datatoken,
      event: ORDER_STARTED,
      args: { consumer: query.consumer },
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs.reverse()) {
      const { serviceIndex, timestamp, payer } = log.args;
      if (Number(serviceIndex) !== query.serviceIndex || timestamp === undefined) continue;
      if (!payer || getAddress(payer) !== getAddress(query.payer)) continue;
      if (query.timeout !== 0 && Number(timestamp) + query.timeout < query.now) continue;
      if (!log.transactionHash || log.blockNumber === null) continue;
      return {
        txHash: log.transactionHash,
        blockNumber: log.blockNumber,
        pricePaid: "0",
        source: "reused",
      };
    }
    if (from === 0n) break;
    // Every order before this page was mined before its first block: too old once that is.
    if (oldestUseful !== undefined) {
      const first = await reader.getBlock({ blockNumber: from });
      if (Number(first.timestamp) < oldestUseful) break;
    }
  }
  return undefined;
}

/** The block of a mined transaction, or undefined when the chain does not know it. */
export async function minedBlock(
  rpcUrl: string,
  chainId: number,
  txHash: ChainHex,
): Promise<bigint | undefined> {
  const chain = defineChain({
    id: chainId,
    name: "order chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  // Only "no such receipt" means unknown; an unreachable chain is an error of its own.
  const receipt = await reader.getTransactionReceipt({ hash: txHash }).catch((error) => {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  });
  return receipt?.status === "success" ? receipt.blockNumber : undefined;
}
