/**
 * The analyst's filter of `searchAssets` turned into a query body, plus the
 * checks the node cannot do and the client does on the rows it receives.
 *
 * Which form: the spec documents what the node does with the
 * Elasticsearch-style form (term/terms in `bool.filter` to equals, in
 * `bool.must_not` to not-equals, `from`, `size`, `sort`), so every filter
 * that can be said there is sent that way, "not unlisted" included. The
 * Typesense form (`filter_by`, whose syntax the spec does not give) is used
 * only for what the other form cannot say: free text (`text`, `name`) and
 * the `raw` escape hatch. Dates cannot be said in either (`metadata.created`
 * is a string), so `createdAfter` / `createdBefore` are applied to the
 * received rows; so is "not unlisted", in case a node ignored it.
 *
 * @module
 */

import type { PagedReadOptions } from "../paging/types.ts";
import { checksumAddress } from "./_address.ts";
import { TidepoolError } from "../errors/errors.ts";
import { checkOptions, type OptionRules } from "../options/check_options.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import { dateInput } from "../table/date_input.ts";
import type { Ddo } from "./ddo.ts";
import { ddoBody, nftOf, purgatoryOf, utc } from "./_ddo_forms.ts";
import type { EsStyleQuery, EsTermFilter, TypesenseQuery } from "./types.ts";

/** What `searchAssets` can filter on. Every field is optional; none means every asset. */
export interface AssetFilter {
  /** `dataset` or `algorithm`. */
  type?: "dataset" | "algorithm";
  /** Assets with any of these tags. */
  tags?: string | string[];
  /**
   * Assets by any of these authors, exact text: letter case counts (the
   * engine ignores it, so the client checks the received rows).
   */
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
  /**
   * `false` leaves out assets in purgatory (flagged by the market), `true`
   * keeps only those; checked on the received rows, since the entry's fields
   * are not in the spec. An asset without a purgatory entry is not in it.
   */
  purgatory?: boolean;
  /**
   * Escape hatch: an extra Typesense `filter_by` clause, joined with `&&`
   * (this sends the whole search in the Typesense form).
   */
  raw?: string;
}

/** Options of `searchAssets`, with the per-call signal and caps. */
export interface SearchAssetsOptions extends PagedReadOptions, StrictOption {
  /** Show unlisted assets (NFT state 5) too. Default false. */
  includeUnlisted?: boolean;
  /** Hits per page asked for; the engine caps it at 250. Default 250. */
  pageSize?: number;
  /**
   * The order, as `field:asc` or `field:desc`, comma separated, for example
   * `indexedMetadata.event.block:desc`.
   */
  sortBy?: string;
}

/** The filter keys; each value is checked with its term below, where its message says more. */
const FILTER_RULES: OptionRules = {
  type: "any",
  tags: "any",
  author: "any",
  owner: "any",
  nftState: "any",
  chainId: "any",
  name: "any",
  text: "any",
  createdAfter: "any",
  createdBefore: "any",
  purgatory: "any",
  raw: "any",
};

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
  const quoted = values.map((value) => quote(value, field));
  return quoted.length === 1 ? `${field}:=${quoted[0]}` : `${field}:=[${quoted.join(",")}]`;
}

function toTime(value: Date | string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  return dateInput(value, what).getTime();
}

/** A search body of either form, and how to ask for one page of it. */
export interface SearchBody {
  /** `elasticsearch` (the spec-documented default) or `typesense` (free text, raw). */
  form: "elasticsearch" | "typesense";
  /** The body of page `page` (from 1) with `perPage` hits. */
  page(page: number, perPage: number): EsStyleQuery | TypesenseQuery;
  /** The filter, said briefly, for error messages. */
  describe: string;
}

/** One filter field with its values, checked, in the form-neutral shape. */
interface Term {
  field: string;
  values: (string | number)[];
}

/** The filter's equality terms, checked, and whether unlisted assets are excluded. */
function terms(filter: AssetFilter, options: SearchAssetsOptions): {
  keep: Term[];
  hideUnlisted: boolean;
} {
  const keep: Term[] = [];
  const add = (field: string, values: (string | number)[] | undefined) => {
    if (values === undefined) return;
    if (values.length === 0) {
      throw new TidepoolError(`Cannot filter ${field}: the list of values is empty`, {
        hint: "Leave the field out to match every value",
      });
    }
    keep.push({ field, values });
  };
  if (filter.type !== undefined) {
    if (filter.type !== "dataset" && filter.type !== "algorithm") {
      throw new TidepoolError(`Invalid type filter: ${String(filter.type)}`, {
        hint: "Use dataset or algorithm",
      });
    }
    add(FIELDS.type, [filter.type]);
  }
  add(FIELDS.tags, list(filter.tags));
  add(FIELDS.author, list(filter.author));
  // DDOs carry checksummed addresses; any spelling the user gives matches them.
  add(FIELDS.owner, list(filter.owner)?.map((o) => checksumAddress(o, "owner")));
  const states = list(filter.nftState);
  if (states) {
    const bad = states.find((s) => !Number.isInteger(s) || s < 0 || s > 5);
    if (bad !== undefined) {
      throw new TidepoolError(`Invalid nftState filter: ${bad}`, {
        hint:
          "NFT states are 0 active, 1 end-of-life, 2 deprecated, 3 revoked, 4 ordering disabled, 5 unlisted",
      });
    }
    add(FIELDS.nftState, states);
  }
  if (filter.chainId !== undefined) {
    if (!Number.isInteger(filter.chainId)) {
      throw new TidepoolError(`Invalid chainId filter: ${filter.chainId}`, {
        hint: "Give an integer such as 11155111",
      });
    }
    add(FIELDS.chainId, [filter.chainId]);
  }
  return { keep, hideUnlisted: !states && !options.includeUnlisted };
}

/** `a:desc,b:asc` as a sort object, or undefined when it is not of that form. */
function sortObject(sortBy: string): Record<string, "asc" | "desc"> | undefined {
  const sort: Record<string, "asc" | "desc"> = {};
  for (const part of sortBy.split(",")) {
    const match = /^\s*([A-Za-z0-9_.@]+):(asc|desc)\s*$/.exec(part);
    if (!match) return undefined;
    sort[match[1]] = match[2] as "asc" | "desc";
  }
  return sort;
}

function termFilter({ field, values }: Term): EsTermFilter {
  return values.length === 1 ? { term: { [field]: values[0] } } : { terms: { [field]: values } };
}

/**
 * The search body: Elasticsearch-style unless free text or `raw` needs the
 * Typesense form. Every check runs here, so a bad filter fails before any
 * request.
 */
export function searchBody(filter: AssetFilter, options: SearchAssetsOptions): SearchBody {
  checkOptions("the searchAssets filter", filter, FILTER_RULES);
  checkOptions("searchAssets", options, {
    signal: "signal",
    maxPages: "integer",
    maxRows: "integer",
    strict: "boolean",
    includeUnlisted: "boolean",
    pageSize: "integer",
    sortBy: "string",
  });
  const { keep, hideUnlisted } = terms(filter, options);
  if (filter.text !== undefined && filter.name !== undefined) {
    throw new TidepoolError("Cannot search by name and text at once", {
      hint: "Use text to search name, description, author and tags together",
    });
  }
  toTime(filter.createdAfter, "createdAfter");
  toTime(filter.createdBefore, "createdBefore");
  const raw = filter.raw !== undefined && filter.raw.trim() !== "" ? filter.raw : undefined;
  const sort = options.sortBy === undefined ? undefined : sortObject(options.sortBy);
  const needsTypesense = filter.text !== undefined || filter.name !== undefined ||
    raw !== undefined || (options.sortBy !== undefined && sort === undefined);
  if (!needsTypesense) {
    const bool: NonNullable<EsStyleQuery["query"]>["bool"] = { filter: keep.map(termFilter) };
    if (hideUnlisted) bool.must_not = [{ term: { [FIELDS.nftState]: 5 } }];
    return {
      form: "elasticsearch",
      describe: JSON.stringify({ query: { bool } }),
      page: (page, perPage) => ({
        from: (page - 1) * perPage,
        size: perPage,
        ...(sort ? { sort } : {}),
        query: { bool },
      }),
    };
  }
  const clauses = keep.map(({ field, values }) => clause(field, values));
  if (hideUnlisted) clauses.push(`${FIELDS.nftState}:!=5`);
  if (raw !== undefined) clauses.push(`(${raw})`);
  const body: TypesenseQuery = { q: "*", filter_by: clauses.join(" && ") };
  if (filter.text !== undefined) Object.assign(body, { q: filter.text, query_by: TEXT_FIELDS });
  if (filter.name !== undefined) Object.assign(body, { q: filter.name, query_by: "metadata.name" });
  if (options.sortBy !== undefined) body.sort_by = options.sortBy;
  return {
    form: "typesense",
    describe: `filter_by: ${body.filter_by || "(none)"}; q: ${body.q}`,
    page: (page, perPage) => ({ ...body, page, per_page: perPage }),
  };
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
  const authors = list(filter.author);
  if (filter.purgatory !== undefined && typeof filter.purgatory !== "boolean") {
    throw new TidepoolError(`Invalid purgatory filter: ${String(filter.purgatory)}`, {
      hint: "Give false to leave out assets in purgatory, true to keep only them",
    });
  }
  return (ddo) => {
    const state = nftOf(ddo)?.state;
    // A node that ignored the filter must still not show unlisted assets.
    if (hideUnlisted && state === 5) return false;
    // Typesense matches string filters whatever the case; the doc says exact.
    if (authors && !authors.includes(ddoBody(ddo).metadata?.author as string)) return false;
    if (filter.purgatory !== undefined && (purgatoryOf(ddo)?.state ?? false) !== filter.purgatory) {
      return false;
    }
    if (after === undefined && before === undefined) return true;
    const created = Date.parse(String(utc(ddoBody(ddo).metadata?.created) ?? ""));
    if (Number.isNaN(created)) return false;
    if (after !== undefined && created < after) return false;
    if (before !== undefined && created >= before) return false;
    return true;
  };
}
