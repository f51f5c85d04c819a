/**
 * The analyst's filter of `searchAssets` turned into a Typesense-style body
 * (the form the node passes to its search engine as is), plus the checks the
 * node cannot do and the client does on the rows it receives.
 *
 * Why Typesense-style: the Elasticsearch-style form is translated only for
 * term/terms, so "not unlisted" and free text cannot be said in it; the
 * Typesense form can say both. Dates cannot be said in either (the engine
 * filters ranges on numeric fields only and `metadata.created` is a string),
 * so `createdAfter` / `createdBefore` are applied to the received rows.
 *
 * @module
 */

import type { PagedReadOptions } from "../paging/types.ts";
import { checksumAddress } from "./_address.ts";
import { TidepoolError } from "../http/errors.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import type { Ddo } from "./ddo.ts";
import { ddoBody, nftOf, utc } from "./_ddo_forms.ts";
import type { TypesenseQuery } from "./types.ts";

/** What `searchAssets` can filter on. Every field is optional; none means every asset. */
export interface AssetFilter {
  /** `dataset` or `algorithm`. */
  type?: "dataset" | "algorithm";
  /** Assets with any of these tags. */
  tags?: string | string[];
  /** Assets by any of these authors (exact text). */
  author?: string | string[];
  /** Assets whose data NFT any of these addresses owns. */
  owner?: string | string[];
  /** NFT states to keep; state 5 (unlisted) is hidden unless listed here or `includeUnlisted` is set. */
  nftState?: number | number[];
  /** Chain id. */
  chainId?: number;
  /** Search text matched against the name only (word prefixes, case-insensitive). */
  name?: string;
  /** Search text matched against name, description, author and tags. */
  text?: string;
  /** Created on or after this date (checked on the received rows). */
  createdAfter?: Date | string;
  /** Created before this date (checked on the received rows). */
  createdBefore?: Date | string;
  /** Escape hatch: an extra Typesense `filter_by` clause, joined with `&&`. */
  raw?: string;
}

/** Options of `searchAssets`, with the per-call signal and caps. */
export interface SearchAssetsOptions extends PagedReadOptions, StrictOption {
  /** Show unlisted assets (NFT state 5) too. Default false. */
  includeUnlisted?: boolean;
  /** Hits per page asked for; the engine caps it at 250. Default 250. */
  pageSize?: number;
  /** A Typesense `sort_by` expression, for example `indexedMetadata.event.block:desc`. */
  sortBy?: string;
}

const FIELDS = {
  type: "metadata.type",
  tags: "metadata.tags",
  author: "metadata.author",
  owner: "indexedMetadata.nft.owner",
  nftState: "indexedMetadata.nft.state",
  chainId: "chainId",
} as const;

const TEXT_FIELDS = "metadata.name,metadata.description,metadata.author,metadata.tags";

/** Quotes one value for `filter_by`; backticks cannot be escaped there, so they are refused. */
function quote(value: string | number, field: string): string {
  if (typeof value === "number") return String(value);
  if (value.includes("`")) {
    throw new TidepoolError(`Cannot filter ${field}: the value contains a backtick: ${value}`, {
      hint: "The search engine cannot match values with backticks; use text instead",
    });
  }
  return /^[A-Za-z0-9_.-]+$/.test(value) ? value : `\`${value}\``;
}

function list<T>(value: T | T[] | undefined): T[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values;
}

function clause(field: string, values: (string | number)[]): string {
  if (values.length === 0) {
    throw new TidepoolError(`Cannot filter ${field}: the list of values is empty`, {
      hint: "Leave the field out to match every value",
    });
  }
  const quoted = values.map((value) => quote(value, field));
  return quoted.length === 1 ? `${field}:=${quoted[0]}` : `${field}:=[${quoted.join(",")}]`;
}

function toTime(value: Date | string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time)) {
    throw new TidepoolError(`Invalid ${what}: ${String(value)}`, {
      hint: "Give a Date or an ISO 8601 date such as 2025-01-31",
    });
  }
  return time;
}

/** The body of the first page (without `page` and `per_page`). */
export function searchBody(
  filter: AssetFilter,
  options: SearchAssetsOptions,
): TypesenseQuery {
  const clauses: string[] = [];
  if (filter.type !== undefined) {
    if (filter.type !== "dataset" && filter.type !== "algorithm") {
      throw new TidepoolError(`Invalid type filter: ${String(filter.type)}`, {
        hint: "Use dataset or algorithm",
      });
    }
    clauses.push(clause(FIELDS.type, [filter.type]));
  }
  const tags = list(filter.tags);
  if (tags) clauses.push(clause(FIELDS.tags, tags));
  const authors = list(filter.author);
  if (authors) clauses.push(clause(FIELDS.author, authors));
  const owners = list(filter.owner);
  if (owners) {
    // DDOs carry checksummed addresses; any spelling the user gives matches them.
    clauses.push(
      clause(FIELDS.owner, owners.map((o) => checksumAddress(o, "owner"))),
    );
  }
  const states = list(filter.nftState);
  if (states) {
    const bad = states.find((s) => !Number.isInteger(s) || s < 0 || s > 5);
    if (bad !== undefined) {
      throw new TidepoolError(`Invalid nftState filter: ${bad}`, {
        hint:
          "NFT states are 0 active, 1 end-of-life, 2 deprecated, 3 revoked, 4 ordering disabled, 5 unlisted",
      });
    }
    clauses.push(clause(FIELDS.nftState, states));
  } else if (!options.includeUnlisted) {
    clauses.push(`${FIELDS.nftState}:!=5`);
  }
  if (filter.chainId !== undefined) {
    if (!Number.isInteger(filter.chainId)) {
      throw new TidepoolError(`Invalid chainId filter: ${filter.chainId}`, {
        hint: "Give an integer such as 11155111",
      });
    }
    clauses.push(clause(FIELDS.chainId, [filter.chainId]));
  }
  if (filter.raw !== undefined && filter.raw.trim() !== "") clauses.push(`(${filter.raw})`);
  if (filter.text !== undefined && filter.name !== undefined) {
    throw new TidepoolError("Cannot search by name and text at once", {
      hint: "Use text to search name, description, author and tags together",
    });
  }
  // Checked here so a bad date fails before any request.
  toTime(filter.createdAfter, "createdAfter");
  toTime(filter.createdBefore, "createdBefore");
  const body: TypesenseQuery = { q: "*", filter_by: clauses.join(" && ") };
  if (filter.text !== undefined) Object.assign(body, { q: filter.text, query_by: TEXT_FIELDS });
  if (filter.name !== undefined) Object.assign(body, { q: filter.name, query_by: "metadata.name" });
  if (options.sortBy !== undefined) body.sort_by = options.sortBy;
  return body;
}

/** What the client checks on each received DDO: the filters the node cannot express. */
export function clientCheck(
  filter: AssetFilter,
  options: SearchAssetsOptions,
): (ddo: Ddo) => boolean {
  const after = toTime(filter.createdAfter, "createdAfter");
  const before = toTime(filter.createdBefore, "createdBefore");
  const states = list(filter.nftState);
  const hideUnlisted = !options.includeUnlisted && !states?.includes(5);
  return (ddo) => {
    const state = nftOf(ddo)?.state;
    // A node that ignored the filter must still not show unlisted assets.
    if (hideUnlisted && state === 5) return false;
    if (after === undefined && before === undefined) return true;
    const created = Date.parse(String(utc(ddoBody(ddo).metadata?.created) ?? ""));
    if (Number.isNaN(created)) return false;
    if (after !== undefined && created < after) return false;
    if (before !== undefined && created >= before) return false;
    return true;
  };
}
