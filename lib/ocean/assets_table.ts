/**
 * DDOs to the assets table: one row per asset, the same columns for 0 rows or
 * 100,000, whatever DDO version the node serves (4.1.0 keeps the indexer's
 * fields under `indexedMetadata`; 4.0.0 had `nft`, `event` and `datatokens`
 * at the top level; 5.0.0 holds the asset under `credentialSubject`).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { buildTable, defineSchema, type TableSchema } from "../table/mod.ts";
import { type Ddo, NFT_STATE_LABELS } from "./ddo.ts";
import {
  ddoBody,
  eventOf,
  licenseName,
  nftOf,
  purgatoryOf,
  statsOf,
  textValue,
  utc,
} from "./_ddo_forms.ts";
import type { AssetRow } from "./rows.ts";

function servicesOf(ddo: Ddo) {
  const services = ddoBody(ddo).services;
  return Array.isArray(services) ? services : [];
}

function metadataOf(ddo: Ddo) {
  return ddoBody(ddo).metadata;
}

function firstCompute(ddo: Ddo) {
  return servicesOf(ddo).find((service) => service.type === "compute")?.compute;
}

/** An empty string is "not given": null in the table. */
function given(value: unknown): unknown {
  return value === "" ? null : value;
}

function datatokenAddresses(ddo: Ddo): string[] {
  const body = ddoBody(ddo);
  const listed = body.datatokens ?? (body.indexedMetadata?.datatokens as Ddo["datatokens"]);
  if (Array.isArray(listed) && listed.length > 0) return listed.map((token) => token.address);
  return servicesOf(ddo)
    .map((service) => service.datatokenAddress)
    .filter((address): address is string => typeof address === "string" && address !== "");
}

/**
 * The columns of the assets table, in order. Lists are arrays, dates are
 * `Date` (UTC), integers are numbers; a field the DDO does not have is null.
 */
export const ASSET_COLUMNS: TableSchema<Ddo, AssetRow> = defineSchema([
  {
    name: "did",
    type: "string",
    get: (ddo) => ddo.id ?? ddoBody(ddo).id,
    description: "The DID (`id`)",
  },
  { name: "name", type: "string", get: (ddo) => metadataOf(ddo)?.name, description: "Title" },
  {
    name: "type",
    type: "string",
    get: (ddo) => metadataOf(ddo)?.type,
    description: "`dataset` or `algorithm`",
  },
  {
    name: "description",
    type: "string",
    get: (ddo) => textValue(metadataOf(ddo)?.description),
    description: "Description (5.0: the text of its `@value`)",
  },
  { name: "author", type: "string", get: (ddo) => metadataOf(ddo)?.author, description: "Author" },
  {
    name: "license",
    type: "string",
    get: (ddo) => licenseName(metadataOf(ddo)?.license),
    description: "License (5.0: its `name`)",
  },
  {
    name: "tags",
    type: "array",
    get: (ddo) => metadataOf(ddo)?.tags ?? [],
    description: "Tags (empty array when none)",
  },
  {
    name: "created",
    type: "date",
    get: (ddo) => utc(metadataOf(ddo)?.created),
    description: "Creation date",
  },
  {
    name: "updated",
    type: "date",
    get: (ddo) => utc(metadataOf(ddo)?.updated),
    description: "Last update",
  },
  { name: "chainId", type: "integer", get: (ddo) => ddoBody(ddo).chainId, description: "Chain id" },
  {
    name: "nftAddress",
    type: "string",
    get: (ddo) => given(ddoBody(ddo).nftAddress) ?? given(nftOf(ddo)?.address),
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
    get: (ddo) => metadataOf(ddo)?.algorithm?.language,
    description: "Algorithms: language",
  },
  {
    name: "algorithmImage",
    type: "string",
    get: (ddo) => {
      const container = metadataOf(ddo)?.algorithm?.container;
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
  {
    name: "version",
    type: "string",
    description: "DDO version, which tells the form: `5.0.0` is read from `credentialSubject`",
  },
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
  {
    name: "computeServiceId",
    type: "string",
    get: (ddo) => given(servicesOf(ddo).find((service) => service.type === "compute")?.id),
    description:
      "Id of the first compute service: the service id a compute job needs (null without one)",
  },
  {
    name: "purgatory",
    type: "boolean",
    get: (ddo) => purgatoryOf(ddo)?.state,
    description: "Whether the asset is in purgatory (flagged); null when the DDO has no entry",
  },
  {
    name: "purgatoryReason",
    type: "string",
    get: (ddo) => purgatoryOf(ddo)?.reason,
    description: "Why it is in purgatory, when given",
  },
  {
    name: "orders",
    type: "integer",
    get: (ddo) => {
      const counts = (statsOf(ddo) ?? []).map((entry) => entry.orders).filter((n) =>
        typeof n === "number"
      ) as number[];
      return counts.length ? counts.reduce((a, b) => a + b, 0) : null;
    },
    description: "Orders the indexer counted, over every datatoken (null when no stats)",
  },
  {
    name: "stats",
    type: "array",
    get: statsOf,
    description: "The indexer's stats entries as sent (one object per datatoken)",
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
