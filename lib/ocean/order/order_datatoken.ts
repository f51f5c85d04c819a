/**
 * Orders one service of a datatoken on chain: gets the datatoken from the
 * dispenser (free) or the fixed-rate exchange (priced), pays the provider
 * fee and calls `startOrder`, checking everything it can before it sends.
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
  zeroAddress,
} from "viem";
import type { LocalAccount } from "viem/accounts";
import { TidepoolError } from "../../http/errors.ts";

/** A 0x address or hash. */
export type ChainHex = `0x${string}`;

/** The provider fee from `initialize`, as `startOrder` takes it. */
export interface OrderProviderFee {
  /** Address the fee goes to. */
  providerFeeAddress: string;
  /** Token of the fee. */
  providerFeeToken: string;
  /** Amount in base units, decimal string. */
  providerFeeAmount: string;
  /** Hex provider data the node signed. */
  providerData: string;
  /** Unix seconds; 0 means no limit. */
  validUntil: number;
  /** Signature part. */
  v: number;
  /** Signature part. */
  r: string;
  /** Signature part. */
  s: string;
}

/** Parameters of {@linkcode orderDatatoken}. */
export interface OrderDatatokenParameters {
  /** The JSON-RPC URL of the chain (the sandbox's anvil by default in the sandbox). */
  rpcUrl: string;
  /** The chain id; default 31337 (anvil). */
  chainId?: number;
  /** The buyer's viem account; it signs the transactions locally. */
  account: LocalAccount;
  /** The datatoken of the service. */
  datatoken: string;
  /** The index of the service in the DDO. */
  serviceIndex: number;
  /**
   * The address the order is for; default the buyer. A compute order names
   * the environment's `consumerAddress` (what the node checks), paid by the buyer.
   */
  consumer?: string;
  /** The signed provider fee from `initialize`. */
  providerFee: OrderProviderFee;
  /**
   * The service's timeout in seconds (0: orders never expire). When given, a
   * still-valid earlier order of this buyer for this service is returned
   * instead of paying twice.
   */
  reuseWithinSeconds?: number;
  /** The most the buyer pays for one datatoken, in base-token units (`"5"`); no limit when absent. */
  maxPrice?: string;
}

/** An order on chain. */
export interface DatatokenOrder {
  /** The `startOrder` transaction hash: what the node's download and compute take as `transferTxId`. */
  txHash: ChainHex;
  /** Its block. */
  blockNumber: bigint;
  /** Paid for the datatoken, in base-token units as a decimal string; `"0"` when free or already held. */
  pricePaid: string;
  /** How the datatoken was obtained. */
  source: "dispenser" | "exchange" | "held" | "reused";
}

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

/**
 * An order checked and ready to send: what it will cost and how the
 * datatoken is obtained. Nothing has been sent yet; `send()` does it.
 */
export interface PreparedOrder {
  /** How the datatoken will be obtained (`reused`: an earlier order stands, nothing is sent). */
  source: DatatokenOrder["source"];
  /** What the datatoken costs in the exchange's base token, in its base units; 0n when free. */
  price: bigint;
  /** The exchange's base token, for priced datatokens. */
  baseToken?: ChainHex;
  /** Decimals of the base token (18 when free). */
  priceDecimals: number;
  /** The provider fee's token. */
  feeToken: ChainHex;
  /** The provider fee, in base units of `feeToken`. */
  feeAmount: bigint;
  /** The buyer, who signs and pays. */
  buyer: ChainHex;
  /** The buyer's balance of a token now, in its base units. */
  balanceOf(token: ChainHex): Promise<bigint>;
  /** Sends the transactions (or returns the reused order) and waits for the receipt. */
  send(): Promise<DatatokenOrder>;
}

/**
 * Orders a service: refuses an expired provider fee, a price above
 * `maxPrice`, or a balance too small for price plus fee before sending
 * anything; approves exactly what is spent; then dispenses or buys one
 * datatoken (unless one is already held), calls `startOrder` and waits for
 * its receipt.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The order's transaction, block and price.
 * @example Order a free dataset on the sandbox chain
 * ```ts ignore
 * const order = await orderDatatoken({ rpcUrl, account, datatoken, serviceIndex: 0, providerFee });
 * console.log(order.txHash);
 * ```
 */
export async function orderDatatoken(
  parameters: OrderDatatokenParameters,
): Promise<DatatokenOrder> {
  return await (await prepareOrder(parameters)).send();
}

/**
 * Everything {@linkcode orderDatatoken} checks, without sending: an earlier
 * still-valid order, the fee's expiry, the price against `maxPrice`, and the
 * buyer's balance for this one order. A caller ordering several assets sums
 * the prepared costs and checks them together before sending any.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The prepared order.
 */
export async function prepareOrder(parameters: OrderDatatokenParameters): Promise<PreparedOrder> {
  const { account, serviceIndex, providerFee } = parameters;
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
  const send = async (address: ChainHex, abi: Abi, functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi, functionName, args, chain, account });
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
    async send() {
      await payment?.();
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
    },
  };
}

/**
 * The newest order of `consumer` paid by `payer` for this service that has
 * not expired, read from OrderStarted logs.
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
  },
): Promise<DatatokenOrder | undefined> {
  const logs = await reader.getLogs({
    address: query.datatoken,
    event: ORDER_STARTED,
    args: { consumer: query.consumer },
    fromBlock: 0n,
    toBlock: "latest",
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
  return undefined;
}
