/**
 * DDOs to the assets table: one row per asset, the same columns for 0 rows or
 * 100,000, whatever DDO version the node serves (4.1.0 keeps the indexer's
 * fields under `indexedMetadata`; 4.0.0 had `nft`, `event` and `datatokens`
 * at the top level).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { buildTable, defineSchema, type TableSchema } from "../table/mod.ts";
import { type Ddo, type DdoEvent, type DdoNft, NFT_STATE_LABELS } from "./ddo.ts";

function nftOf(ddo: Ddo): DdoNft | undefined {
  return ddo.indexedMetadata?.nft ?? ddo.nft;
}

function eventOf(ddo: Ddo): DdoEvent | undefined {
  const event = ddo.indexedMetadata?.event;
  return event && Object.keys(event).length > 0 ? event : ddo.event ?? event;
}

function servicesOf(ddo: Ddo) {
  return Array.isArray(ddo.services) ? ddo.services : [];
}

function firstCompute(ddo: Ddo) {
  return servicesOf(ddo).find((service) => service.type === "compute")?.compute;
}

/** An empty string is "not given": null in the table. */
function given(value: unknown): unknown {
  return value === "" ? null : value;
}

/**
 * Date-times the indexer writes without a zone (`2022-06-07T23:18:26`) are
 * UTC; without this they would be read in the local zone of the machine.
 */
function utc(value: unknown): unknown {
  return typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value)
    ? `${value}Z`
    : value;
}

function datatokenAddresses(ddo: Ddo): string[] {
  const listed = ddo.datatokens ?? (ddo.indexedMetadata?.datatokens as Ddo["datatokens"]);
  if (Array.isArray(listed) && listed.length > 0) return listed.map((token) => token.address);
  return servicesOf(ddo)
    .map((service) => service.datatokenAddress)
    .filter((address): address is string => typeof address === "string" && address !== "");
}

/**
 * The columns of the assets table, in order. Lists are arrays, dates are
 * `Date` (UTC), integers are numbers; a field the DDO does not have is null.
 */
export const ASSET_COLUMNS: TableSchema<Ddo> = defineSchema([
  { name: "did", type: "string", path: "id", description: "The DID (`id`)" },
  { name: "name", type: "string", path: "metadata.name", description: "Title" },
  {
    name: "type",
    type: "string",
    path: "metadata.type",
    description: "`dataset` or `algorithm`",
  },
  { name: "description", type: "string", path: "metadata.description", description: "Description" },
  { name: "author", type: "string", path: "metadata.author", description: "Author" },
  { name: "license", type: "string", path: "metadata.license", description: "License" },
  {
    name: "tags",
    type: "array",
    get: (ddo) => ddo.metadata?.tags ?? [],
    description: "Tags (empty array when none)",
  },
  {
    name: "created",
    type: "date",
    get: (ddo) => utc(ddo.metadata?.created),
    description: "Creation date",
  },
  {
    name: "updated",
    type: "date",
    get: (ddo) => utc(ddo.metadata?.updated),
    description: "Last update",
  },
  { name: "chainId", type: "integer", description: "Chain id" },
  {
    name: "nftAddress",
    type: "string",
    get: (ddo) => given(ddo.nftAddress) ?? given(nftOf(ddo)?.address),
    description: "Data NFT address",
  },
  {
    name: "owner",
    type: "string",
    get: (ddo) => given(nftOf(ddo)?.owner),
    description: "Owner of the data NFT",
  },
  {
    name: "nftState",
    type: "integer",
    get: (ddo) => nftOf(ddo)?.state,
    description: "NFT state 0..5",
  },
  {
    name: "nftStateLabel",
    type: "string",
    get: (ddo) => NFT_STATE_LABELS[nftOf(ddo)?.state ?? -1],
    description: "active, end-of-life, deprecated, revoked, ordering disabled or unlisted",
  },
  {
    name: "datatokens",
    type: "array",
    get: datatokenAddresses,
    description: "Datatoken addresses, one per service",
  },
  {
    name: "serviceIds",
    type: "array",
    get: (ddo) => servicesOf(ddo).map((service) => service.id),
    description: "Service ids",
  },
  {
    name: "serviceTypes",
    type: "array",
    get: (ddo) => servicesOf(ddo).map((service) => service.type),
    description: "Service types (`access`, `compute`)",
  },
  {
    name: "computeAllowed",
    type: "boolean",
    get: (ddo) => servicesOf(ddo).some((service) => service.type === "compute"),
    description: "Whether the asset has a compute service",
  },
  {
    name: "allowRawAlgorithm",
    type: "boolean",
    get: (ddo) => firstCompute(ddo)?.allowRawAlgorithm,
    description: "First compute service: raw algorithms allowed (null without compute)",
  },
  {
    name: "allowNetworkAccess",
    type: "boolean",
    get: (ddo) => firstCompute(ddo)?.allowNetworkAccess,
    description: "First compute service: network access allowed (null without compute)",
  },
  {
    name: "serviceEndpoint",
    type: "string",
    get: (ddo) =>
      given(servicesOf(ddo).find((service) => service.serviceEndpoint)?.serviceEndpoint),
    description: "Node that serves the first service",
  },
  {
    name: "algorithmLanguage",
    type: "string",
    path: "metadata.algorithm.language",
    description: "Algorithms: language",
  },
  {
    name: "algorithmImage",
    type: "string",
    get: (ddo) => {
      const container = ddo.metadata?.algorithm?.container;
      if (!container?.image) return null;
      return container.tag ? `${container.image}:${container.tag}` : container.image;
    },
    description: "Algorithms: container image and tag (`image:tag`)",
  },
  {
    name: "indexedBlock",
    type: "integer",
    get: (ddo) => eventOf(ddo)?.block,
    description: "Block of the event the indexer stored",
  },
  {
    name: "indexedAt",
    type: "date",
    get: (ddo) => utc(eventOf(ddo)?.datetime),
    description: "Date of that block (UTC)",
  },
  { name: "version", type: "string", description: "DDO version" },
  {
    name: "trustedAlgorithms",
    type: "array",
    get: (ddo) =>
      servicesOf(ddo).flatMap((service) =>
        (service.compute?.publisherTrustedAlgorithms ?? [])
          .map((entry) => entry.did)
          .filter((did): did is string => typeof did === "string")
      ),
    description: "DIDs of the algorithms the compute services trust (`*` for any)",
  },
]);

/**
 * Builds the assets table from DDOs you already have (from `ddo()`, a file,
 * or another tool). The columns are those of {@linkcode ASSET_COLUMNS}.
 *
 * @param ddos The DDOs.
 * @returns One row per DDO, in the order given.
 *
 * @example A table from one DDO
 * ```ts
 * import { assetsTable } from "./assets_table.ts";
 * const table = assetsTable([{
 *   id: "did:op:" + "a".repeat(64), version: "4.1.0", chainId: 11155111,
 *   nftAddress: "0x" + "1".repeat(40), services: [],
 *   metadata: { type: "dataset", name: "Tides", description: "", author: "Me",
 *     license: "CC0-1.0", created: "2025-01-01T00:00:00Z", updated: "2025-01-01T00:00:00Z" },
 * }]);
 * console.log(table.get("name", 0)); // "Tides"
 * ```
 */
export function assetsTable(ddos: Iterable<Ddo>): ColumnTable {
  return buildTable(ASSET_COLUMNS, ddos);
}
