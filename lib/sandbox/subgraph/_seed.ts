/**
 * Seeded, deterministic subgraph data consistent with the sandbox Ocean
 * node: one data NFT per seeded asset, one datatoken per DDO datatoken,
 * and a year of orders for those datatokens from the subgraph's start block.
 *
 * The chain clock is the sandbox's (`sandbox_now.ts`): the head block is
 * mined at `SANDBOX_NOW`, 12 s a block, the clock `seedAssets` uses too, so no
 * order lies after the sandbox's "now". Assets published before the start block
 * appear with the start block as their block (the sandbox keeps every asset
 * orderable). Orders fall on "event blocks", so many share a block and its
 * timestamp; one block holds a batch of 1,200 orders (when there are at
 * least 3,000) so that more than a page of rows shares one timestamp.
 *
 * @module
 */

import { SeededRandom } from "../_random.ts";
import { blockTime, HEAD_BLOCK } from "../sandbox_now.ts";
import { seedAssets } from "../ocean/assets_seed.ts";
import type { Row } from "./_store.ts";

export { blockTime, HEAD_BLOCK };
/** Blocks in a year at 12 s a block. */
export const YEAR_BLOCKS = 2_628_000;
/** The subgraph's start block on its network (11,459,549): a year before the head block. */
export const START_BLOCK = HEAD_BLOCK - YEAR_BLOCKS;

/** Options of the seed. */
export interface SubgraphSeedOptions {
  /** Orders to make; default 12,000. */
  orders?: number;
  /** Seed of the order data; default 20260926. */
  seed?: number;
  /** Assets of the sandbox node (`seedAssets` options); default its defaults. */
  assets?: { count?: number; seed?: number };
}

/** The OCEAN token of the sandbox network. */
export const OCEAN_ADDRESS = "0x1b083d8584dd3e6ff37d04a6e7e82b5f622f3985";

/** Generates every entity's rows. */
export function seedSubgraph(options: SubgraphSeedOptions = {}): Record<string, Row[]> {
  const random = new SeededRandom(options.seed ?? 20260926);
  const ddos = seedAssets(options.assets ?? {});
  const users = new Map<string, Row>();
  const user = (id: string): Row => {
    const lower = id.toLowerCase();
    let row = users.get(lower);
    if (!row) {
      row = { id: lower };
      users.set(lower, row);
    }
    return row;
  };
  const hex = (bytes: number) => `0x${random.hex(bytes)}`;
  const ocean: Row = {
    id: OCEAN_ADDRESS,
    address: OCEAN_ADDRESS,
    symbol: "OCEAN",
    name: "Ocean Token",
    decimals: 18,
    isDatatoken: false,
    templateId: null,
    nft: null,
    publishMarketFeeAddress: null,
    publishMarketFeeToken: null,
    publishMarketFeeAmount: null,
    orderCount: "0",
    createdTimestamp: blockTime(START_BLOCK),
    tx: hex(32),
    block: START_BLOCK,
    orders: [],
    dispensers: [],
    fixedRateExchanges: [],
  };
  const nfts: Row[] = [];
  const tokens: Row[] = [ocean];
  const datatokens: Row[] = [];
  const dispensers: Row[] = [];
  const exchanges: Row[] = [];
  const updates: Row[] = [];
  const markets = Array.from({ length: 6 }, () => hex(20));
  for (const ddo of ddos) {
    const event = ddo.indexedMetadata?.event;
    const nftMeta = ddo.indexedMetadata?.nft;
    const block = Math.max(START_BLOCK, event?.block ?? START_BLOCK);
    const owner = user(nftMeta?.owner ?? hex(20));
    const nft: Row = {
      id: ddo.nftAddress.toLowerCase(),
      address: ddo.nftAddress.toLowerCase(),
      symbol: nftMeta?.symbol ?? "OCEAN-NFT",
      name: nftMeta?.name ?? "Ocean Data NFT",
      owner,
      assetState: nftMeta?.state ?? 0,
      createdTimestamp: blockTime(block),
      tx: (event?.txid ?? event?.tx ?? hex(32)).toLowerCase(),
      block,
    };
    nfts.push(nft);
    updates.push({
      id: `${nft.tx}-${nft.id}`,
      nft,
      userAddress: owner.id,
      assetState: 0,
      type: "METADATA_CREATED",
      timestamp: nft.createdTimestamp,
      tx: nft.tx,
      block,
    });
    for (let i = random.int(0, 3); i > 0; i--) {
      const at = random.int(block + 1, HEAD_BLOCK);
      const tx = hex(32);
      updates.push({
        id: `${tx}-${nft.id}`,
        nft,
        userAddress: owner.id,
        assetState: 0,
        type: "METADATA_UPDATED",
        timestamp: blockTime(at),
        tx,
        block: at,
      });
    }
    if (nft.assetState !== 0) {
      const at = random.int(block + 1, HEAD_BLOCK);
      const tx = hex(32);
      updates.push({
        id: `${tx}-${nft.id}`,
        nft,
        userAddress: owner.id,
        assetState: nft.assetState,
        type: "STATE_UPDATED",
        timestamp: blockTime(at),
        tx,
        block: at,
      });
    }
    for (const dt of ddo.datatokens ?? []) {
      const address = dt.address.toLowerCase();
      const token: Row = {
        id: address,
        address,
        symbol: dt.symbol,
        name: dt.name,
        decimals: 18,
        isDatatoken: true,
        templateId: random.pick([1, 1, 2]),
        nft,
        publishMarketFeeAddress: random.pick(markets),
        publishMarketFeeToken: OCEAN_ADDRESS,
        publishMarketFeeAmount: random.pick(["0", "0", "0.1", "1.5", "0.000000000000000001"]),
        orderCount: "0",
        createdTimestamp: blockTime(block),
        tx: nft.tx,
        block,
        orders: [] as Row[],
        dispensers: [] as Row[],
        fixedRateExchanges: [] as Row[],
      };
      if (random.chance(0.8)) {
        const dispenser = { id: address, active: true, token, ...created(token) };
        dispensers.push(dispenser);
        (token.dispensers as Row[]).push(dispenser);
      } else {
        const exchange = {
          id: `${hex(20)}-${hex(32)}`,
          active: random.chance(0.9),
          price: String(random.int(1, 500)),
          datatoken: token,
          ...created(token),
        };
        exchanges.push(exchange);
        (token.fixedRateExchanges as Row[]).push(exchange);
      }
      tokens.push(token);
      datatokens.push(token);
    }
  }
  const orders = seedOrders(random, options.orders ?? 12_000, datatokens, ocean, user);
  // The fields added later draw from their own sequence, so the earlier ones stay as they were.
  addOrderDetails(new SeededRandom((options.seed ?? 20260926) + 1), orders, ocean, markets, user);
  const reuses = orders.flatMap((order) => order.reuses as Row[]);
  const stats: Row = {
    id: "1",
    orderCount: orders.length,
    nftCount: nfts.length,
    datatokenCount: datatokens.length,
    version: "4.0.0",
    block: START_BLOCK,
  };
  return {
    User: [...users.values()],
    Nft: nfts,
    Token: tokens,
    Dispenser: dispensers,
    FixedRateExchange: exchanges,
    OrderReuse: reuses,
    Order: orders,
    NftUpdate: updates,
    GlobalStatistic: [stats],
    OPC: [],
  };
}

function created(row: Row) {
  return { createdTimestamp: row.createdTimestamp, tx: row.tx, block: row.block };
}

function seedOrders(
  random: SeededRandom,
  count: number,
  datatokens: Row[],
  ocean: Row,
  user: (id: string) => Row,
): Row[] {
  const hex = (bytes: number) => `0x${random.hex(bytes)}`;
  const consumers = Array.from(
    { length: Math.max(50, Math.min(2000, count / 40)) },
    () => user(hex(20)),
  );
  // Popular datatokens get most orders.
  const popular = random.sample(datatokens, datatokens.length);
  const fees = Array.from({ length: 256 }, () =>
    JSON.stringify({
      providerFeeAddress: hex(20),
      providerFeeToken: OCEAN_ADDRESS,
      providerFeeAmount: random.pick(["0", "0", "1000000000000000000"]),
      providerData: hex(48),
      v: random.pick([27, 28]),
      r: hex(32),
      s: hex(32),
      validUntil: 0,
    }));
  const batch = count >= 3000 ? 1200 : 0;
  const events = Math.max(1, Math.ceil((count - batch) * 0.55));
  const eventBlocks = Array.from({ length: events }, () => random.int(START_BLOCK, HEAD_BLOCK - 1))
    .sort((a, b) => a - b);
  const blocks: number[] = [];
  for (let i = 0; i < count - batch; i++) blocks.push(eventBlocks[random.int(0, events - 1)]);
  const batchBlock = eventBlocks[Math.floor(events / 2)];
  for (let i = 0; i < batch; i++) blocks.push(batchBlock);
  blocks.sort((a, b) => a - b);
  const orders: Row[] = [];
  for (const block of blocks) {
    const token = popular[Math.floor(popular.length * random.next() ** 3)];
    const consumer = random.pick(consumers);
    const payer = random.chance(0.9) ? consumer : random.pick(consumers);
    const tx = hex(32);
    const timestamp = blockTime(block);
    const feeRoll = random.next();
    const order: Row = {
      id: `${tx}-${token.id}-${payer.id}`,
      datatoken: token,
      consumer,
      payer,
      amount: "1",
      serviceIndex: random.chance(0.75) ? 0 : 1,
      providerFee: feeRoll < 0.05
        ? null
        : feeRoll < 0.07
        ? hex(20)
        : random.pick(fees).replace('"validUntil":0', `"validUntil":${timestamp + 86400}`),
      consumerMarketToken: random.chance(0.6) ? ocean : null,
      reuses: [] as Row[],
      createdTimestamp: timestamp,
      tx,
      block,
    };
    if (random.chance(0.1)) {
      for (let n = random.int(1, 3); n > 0; n--) {
        const at = Math.min(HEAD_BLOCK, block + random.int(1, 50_000));
        const reuseTx = hex(32);
        (order.reuses as Row[]).push({
          id: `${reuseTx}-${order.id}`,
          caller: consumer.id,
          createdTimestamp: blockTime(at),
          tx: reuseTx,
          block: at,
        });
      }
    }
    orders.push(order);
    (token.orders as Row[]).push(order);
  }
  for (const token of datatokens) token.orderCount = String((token.orders as Row[]).length);
  ocean.orderCount = "0";
  return orders;
}

/** An OCEAN price in US dollars, for the subgraph's estimated USD values. */
const OCEAN_USD = 0.5;

/**
 * The fields of ocean-subgraph's Order beyond the interface document's:
 * owner, markets and their fees, the provider fee's expiry, event index,
 * last price, estimated USD value and gas, consistent with the order's
 * datatoken (its NFT owner, publish-market fee and exchange price).
 */
function addOrderDetails(
  random: SeededRandom,
  orders: Row[],
  ocean: Row,
  markets: string[],
  user: (id: string) => Row,
) {
  for (const order of orders) {
    const token = order.datatoken as Row;
    const exchange = (token.fixedRateExchanges as Row[])[0];
    const publishFee = token.publishMarketFeeAmount as string;
    const price = exchange ? String(exchange.price) : "0";
    const fee = /"validUntil":(\d+)/.exec(String(order.providerFee ?? ""));
    const consumeFee = order.consumerMarketToken ? random.pick(["0", "0.5", "1.25"]) : null;
    Object.assign(order, {
      nftOwner: (token.nft as Row).owner,
      publishingMarket: user(token.publishMarketFeeAddress as string),
      publishingMarketToken: publishFee === "0" ? null : ocean,
      publishingMarketAmmount: publishFee,
      providerFeeValidUntil: fee ? fee[1] : null,
      consumerMarket: consumeFee === null ? null : user(random.pick(markets)),
      consumerMarketAmmount: consumeFee,
      eventIndex: random.int(0, 12),
      lastPriceToken: exchange ? ocean : null,
      lastPriceValue: price,
      estimatedUSDValue: String(Number(price) * OCEAN_USD),
      gasUsed: String(random.int(150_000, 420_000)),
      gasPrice: String(BigInt(random.int(1, 150)) * 1_000_000_000n + BigInt(random.int(0, 999))),
    });
  }
}
