/**
 * The entities of the sandbox subgraph and their fields, as data: the
 * GraphQL schema (types, `_filter` inputs, `_orderBy` enums) is generated
 * from this list the way graph-node generates it from `schema.graphql`.
 *
 * @module
 */

/** Scalar types of entity fields. */
export type ScalarType =
  | "ID"
  | "String"
  | "Int"
  | "BigInt"
  | "BigDecimal"
  | "Boolean"
  | "NftUpdateType";

/** One field: a scalar, a reference to another entity, or a list of entities. */
export type FieldDef =
  | { name: string; scalar: ScalarType }
  | { name: string; ref: string }
  | { name: string; list: string };

/** One entity: its type, its collection and single-row query fields, and its fields. */
export interface EntityDef {
  type: string;
  collection: string;
  single: string;
  fields: FieldDef[];
}

const s = (name: string, scalar: ScalarType): FieldDef => ({ name, scalar });
const r = (name: string, ref: string): FieldDef => ({ name, ref });
const l = (name: string, list: string): FieldDef => ({ name, list });
const created = [s("createdTimestamp", "Int"), s("tx", "String"), s("block", "Int")];

/** Every entity the sandbox serves. */
export const ENTITIES: EntityDef[] = [
  { type: "User", collection: "users", single: "user", fields: [s("id", "ID")] },
  {
    type: "Nft",
    collection: "nfts",
    single: "nft",
    fields: [
      s("id", "ID"),
      s("address", "String"),
      s("symbol", "String"),
      s("name", "String"),
      r("owner", "User"),
      s("assetState", "Int"),
      ...created,
    ],
  },
  {
    type: "Token",
    collection: "tokens",
    single: "token",
    fields: [
      s("id", "ID"),
      s("address", "String"),
      s("symbol", "String"),
      s("name", "String"),
      s("decimals", "Int"),
      s("isDatatoken", "Boolean"),
      s("templateId", "Int"),
      r("nft", "Nft"),
      s("publishMarketFeeAddress", "String"),
      s("publishMarketFeeToken", "String"),
      s("publishMarketFeeAmount", "BigDecimal"),
      s("orderCount", "BigInt"),
      ...created,
      l("orders", "Order"),
      l("dispensers", "Dispenser"),
      l("fixedRateExchanges", "FixedRateExchange"),
    ],
  },
  {
    type: "Dispenser",
    collection: "dispensers",
    single: "dispenser",
    fields: [s("id", "ID"), s("active", "Boolean"), r("token", "Token"), ...created],
  },
  {
    type: "FixedRateExchange",
    collection: "fixedRateExchanges",
    single: "fixedRateExchange",
    fields: [
      s("id", "ID"),
      s("active", "Boolean"),
      s("price", "BigDecimal"),
      r("datatoken", "Token"),
      ...created,
    ],
  },
  {
    type: "OrderReuse",
    collection: "orderReuses",
    single: "orderReuse",
    fields: [s("id", "ID"), s("caller", "String"), ...created],
  },
  {
    type: "Order",
    collection: "orders",
    single: "order",
    fields: [
      // As ocean-subgraph's schema.graphql has them, misspelt Ammount included.
      s("id", "ID"),
      r("datatoken", "Token"),
      r("consumer", "User"),
      r("payer", "User"),
      s("amount", "BigDecimal"),
      s("serviceIndex", "Int"),
      r("nftOwner", "User"),
      r("publishingMarket", "User"),
      r("publishingMarketToken", "Token"),
      s("publishingMarketAmmount", "BigDecimal"),
      s("providerFee", "String"),
      s("providerFeeValidUntil", "BigInt"),
      r("consumerMarket", "User"),
      r("consumerMarketToken", "Token"),
      s("consumerMarketAmmount", "BigDecimal"),
      l("reuses", "OrderReuse"),
      ...created,
      s("eventIndex", "Int"),
      r("lastPriceToken", "Token"),
      s("lastPriceValue", "BigDecimal"),
      s("estimatedUSDValue", "BigDecimal"),
      s("gasUsed", "BigDecimal"),
      s("gasPrice", "BigInt"),
    ],
  },
  {
    type: "NftUpdate",
    collection: "nftUpdates",
    single: "nftUpdate",
    fields: [
      s("id", "ID"),
      r("nft", "Nft"),
      s("userAddress", "String"),
      s("assetState", "Int"),
      s("type", "NftUpdateType"),
      s("timestamp", "Int"),
      s("tx", "String"),
      s("block", "Int"),
    ],
  },
  {
    type: "GlobalStatistic",
    collection: "globalStatistics",
    single: "globalStatistic",
    fields: [
      s("id", "ID"),
      s("orderCount", "Int"),
      s("nftCount", "Int"),
      s("datatokenCount", "Int"),
      s("version", "String"),
      s("block", "Int"),
    ],
  },
  {
    type: "OPC",
    collection: "opcs",
    single: "opc",
    fields: [
      s("id", "ID"),
      s("swapOceanFee", "BigDecimal"),
      s("swapNonOceanFee", "BigDecimal"),
      l("approvedTokens", "Token"),
      s("block", "Int"),
    ],
  },
];

/** Entity definitions by type name. */
export const ENTITY_BY_TYPE: ReadonlyMap<string, EntityDef> = new Map(
  ENTITIES.map((entity) => [entity.type, entity]),
);

/** The schema text: types, filters, orderBy enums and the Query type. */
export function schemaText(): string {
  const parts: string[] = [
    "scalar BigInt",
    "scalar BigDecimal",
    "scalar Bytes",
    "enum OrderDirection { asc desc }",
    "enum NftUpdateType { METADATA_CREATED METADATA_UPDATED STATE_UPDATED TOKENURI_UPDATED }",
    "input Block_height { hash: Bytes number: Int number_gte: Int }",
    "type _Block_ { hash: Bytes number: Int! timestamp: Int }",
    "type _Meta_ { block: _Block_! deployment: String! hasIndexingErrors: Boolean! }",
  ];
  const query: string[] = ["_meta(block: Block_height): _Meta_"];
  for (const entity of ENTITIES) {
    const fields = entity.fields.map((field) => {
      if ("scalar" in field) {
        return `${field.name}: ${field.scalar}${field.name === "id" ? "!" : ""}`;
      }
      if ("ref" in field) return `${field.name}: ${field.ref}`;
      return `${field.name}(first: Int = 100, skip: Int = 0): [${field.list}!]`;
    });
    parts.push(`type ${entity.type} { ${fields.join(" ")} }`);
    const filters: string[] = [];
    const orderable: string[] = [];
    for (const field of entity.fields) {
      if ("list" in field) continue;
      const type = "scalar" in field ? field.scalar : "String";
      const ops = type === "Boolean" || type === "NftUpdateType"
        ? ["", "_not"]
        : ["", "_not", "_gt", "_gte", "_lt", "_lte"];
      for (const op of ops) filters.push(`${field.name}${op}: ${type}`);
      filters.push(`${field.name}_in: [${type}!]`, `${field.name}_not_in: [${type}!]`);
      if ("ref" in field) filters.push(`${field.name}_: ${field.ref}_filter`);
      orderable.push(field.name);
    }
    filters.push(`and: [${entity.type}_filter]`, `or: [${entity.type}_filter]`);
    parts.push(`input ${entity.type}_filter { ${filters.join(" ")} }`);
    parts.push(`enum ${entity.type}_orderBy { ${orderable.join(" ")} }`);
    query.push(
      `${entity.collection}(skip: Int = 0, first: Int = 100, orderBy: ${entity.type}_orderBy, ` +
        `orderDirection: OrderDirection, where: ${entity.type}_filter, block: Block_height): ` +
        `[${entity.type}!]!`,
      `${entity.single}(id: ID!, block: Block_height): ${entity.type}`,
    );
  }
  parts.push(`type Query { ${query.join(" ")} }`);
  return parts.join("\n");
}
