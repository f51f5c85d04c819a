/**
 * The types of the expression search client: filters, records and results.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { ClientOptions } from "../http/options.ts";
import type { BodyPart, Emotion } from "./vocabulary.ts";

/** The valences the service knows. */
export type Valence = "positive" | "negative" | "neutral" | "ambiguous";
/** The intensities the service knows. */
export type Intensity = "low" | "medium" | "high";
/** The genders the `gender` filter accepts. */
export type Gender = "male" | "female" | "unknown" | "mixed";
/** Sort keys; `bodyPart` is sent as the service's `body_part`. */
export type SortField = "_score" | "emotion" | "bodyPart" | "body_part" | "intensity";
/** Sort direction. */
export type SortOrder = "asc" | "desc";

/** One value or several (sent comma-joined). */
export type OneOrMany<T> = T | readonly T[];

/** Filters of a search; several values of one filter match any of them. */
export interface SearchFilters {
  /** Full text over surface and context; words separated by spaces must all occur. */
  keyword?: string;
  /**
   * Emotion categories, e.g. `"喜"` or `["喜", "驚"]`; checked against the
   * service's list (`stats()`) before the search is sent.
   */
  emotion?: OneOrMany<Emotion>;
  /** Body parts, e.g. `["目", "頬"]`; checked like `emotion`. */
  bodyPart?: OneOrMany<BodyPart>;
  /** Valences. */
  valence?: OneOrMany<Valence>;
  /**
   * Intensities. The spec lists no `intensity` parameter, so it is never
   * sent: `searchAll` keeps the matching rows of every page itself, and
   * `search` (one page, whose `total` and facets the service counts) refuses it.
   */
  intensity?: OneOrMany<Intensity>;
  /** Genders of the character. */
  gender?: OneOrMany<Gender>;
  /** One work identifier. */
  pid?: string;
}

/** Parameters of one search page. */
export interface SearchParameters extends SearchFilters {
  /** Hits per page; service default 20. */
  limit?: number;
  /** Hits to skip. */
  offset?: number;
  /** Sort key; service default `_score`. */
  sort?: SortField;
  /** Sort direction; service default `desc`. */
  order?: SortOrder;
}

/** Facet counts over the filtered set, each a table of `key, count`. */
export interface ExpressionFacets {
  /** Counts by emotion category. */
  emotions: ColumnTable;
  /** Counts by body part. */
  bodyParts: ColumnTable;
  /** Counts by valence. */
  valences: ColumnTable;
  /** Counts by intensity. */
  intensities: ColumnTable;
  /** Counts by gender of the character. */
  genders: ColumnTable;
}

/** The answer of `search`. */
export interface SearchResult {
  /** The hits of the page, columns as in `EXPRESSION_COLUMNS`. */
  hits: ColumnTable;
  /** How many expressions match in all. */
  total: number;
  /** Counts over every match, not only this page. */
  facets: ExpressionFacets;
}

/** One expression, with camelCase fields; absent fields are null. */
export interface Expression {
  /** Search-index document id. */
  id: string;
  /** Work identifier in the digital collection. */
  pid: string;
  /** Work title. */
  title: string | null;
  /** The extracted phrase. */
  surface: string | null;
  /** Surrounding text. */
  context: string | null;
  /** Emotion category. */
  emotion: string | null;
  /** Body part. */
  bodyPart: string | null;
  /** `positive`, `negative`, `neutral` or `ambiguous`. */
  valence: string | null;
  /** `low`, `medium` or `high`. */
  intensity: string | null;
  /** Person the expression belongs to. */
  character: string | null;
  /** Frame numbers in the original. */
  pages: number[] | null;
  /** Author. */
  author: string | null;
  /** Year of composition. */
  year: number | null;
  /** Genre. */
  genre: string | null;
}

/** An expression as the service sends it. */
export interface WireExpression {
  /** Search-index document id. */
  id: string;
  /** Work identifier in the digital collection. */
  pid: string;
  /** Work title. */
  title?: string;
  /** The extracted phrase. */
  surface?: string;
  /** Surrounding text. */
  context?: string;
  /** Emotion category. */
  emotion?: string;
  /** Body part. */
  body_part?: string;
  /** `positive`, `negative`, `neutral` or `ambiguous`. */
  valence?: string;
  /** `low`, `medium` or `high`. */
  intensity?: string;
  /** Person the expression belongs to. */
  character?: string;
  /** Frame numbers in the original. */
  pages?: number[];
  /** Author. */
  author?: string;
  /** Year of composition. */
  year?: number;
  /** Genre. */
  genre?: string;
}

/** Options of `searchAll` and `byBook`. */
export interface PagingOptions {
  /** Stop after this many rows. */
  maxRows?: number;
  /**
   * Rows per request. Default: the largest the service accepts, found by
   * asking for 1,000 and stepping down on a 400 (or reading the maximum from
   * the error), then remembered by the client.
   */
  pageSize?: number;
  /** Cancels the read: the request in flight and those requested ahead. */
  signal?: AbortSignal;
  /** Most requests before the read fails with a `PagingCapError`; default 100,000. */
  maxPages?: number;
}

/** Options of `searchAll`. */
export interface SearchAllOptions extends PagingOptions {
  /** Sort key sent with every page. */
  sort?: SortField;
  /** Sort direction sent with every page. */
  order?: SortOrder;
}

/** The answer of `stats`. */
export interface ExpressionStats {
  /** `emotion, count`, largest first. */
  emotions: ColumnTable;
  /** `bodyPart, count`, largest first. */
  bodyParts: ColumnTable;
  /** `valence, count`, largest first. */
  valences: ColumnTable;
  /** Expressions in the index. */
  total: number;
}

/** The answer of `analytics`: long-form tables ready for Plot. */
export interface ExpressionAnalytics {
  /** `pid, title, emotion, count, total`: one row per work and category; `total` is the work's. */
  bookEmotions: ColumnTable;
  /** `emotion, bodyPart, count, total`: one row per cell of the matrix; `total` is the emotion's. */
  emotionBodyPart: ColumnTable;
  /** `valence, count`, largest first. */
  valence: ColumnTable;
  /** `emotion, count`, largest first. */
  emotion: ColumnTable;
  /** `bodyPart, count`, largest first. */
  bodyPart: ColumnTable;
}

/** Options of {@linkcode ExpressionSearch}: the shared client options and a page size. */
export interface ExpressionSearchOptions extends ClientOptions {
  /** Rows per request in `searchAll` and `byBook`; default discovered. */
  pageSize?: number;
}
