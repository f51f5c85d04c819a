/**
 * Checks search parameters locally and turns them into the service's query
 * string: lists comma-joined, camelCase names to the service's snake_case.
 * Non-ASCII values are percent-encoded by the URL builder of lib/http.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import type { QueryValue } from "../http/client.ts";
import type { SearchAllOptions, SearchFilters, SearchParameters } from "./types.ts";

/** The lists the spec gives; emotion and body part lists are checked in vocabulary.ts. */
export const VALENCES = ["positive", "negative", "neutral", "ambiguous"] as const;
export const INTENSITIES = ["low", "medium", "high"] as const;
export const GENDERS = ["male", "female", "unknown", "mixed"] as const;
export const SORTS: Readonly<Record<string, string>> = {
  _score: "_score",
  emotion: "emotion",
  bodyPart: "body_part",
  body_part: "body_part",
  intensity: "intensity",
};
const ORDERS = ["asc", "desc"];
const FILTER_NAMES = new Set([
  "keyword",
  "emotion",
  "bodyPart",
  "valence",
  "intensity",
  "gender",
  "pid",
  "limit",
  "offset",
  "sort",
  "order",
]);

function invalid(message: string, hint: string): TidepoolError {
  return new TidepoolError(`Cannot search expressions: ${message}`, { hint });
}

function listValue(
  name: string,
  value: unknown,
  allowed?: readonly string[],
): string | undefined {
  if (value === undefined || value === null) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0) return undefined;
  for (const item of values) {
    if (typeof item !== "string" || item.trim() === "") {
      throw invalid(
        `${name} values must be non-empty strings, got ${JSON.stringify(item)}`,
        `Pass ${name} as a string or an array of strings`,
      );
    }
    if (item.includes(",")) {
      throw invalid(
        `${name} value "${item}" contains a comma, which the service reads as a separator`,
        `Pass several values as an array: ${name}: ["a", "b"]`,
      );
    }
    if (allowed && !allowed.includes(item)) {
      throw invalid(
        `${name} "${item}" is not one of ${allowed.join(", ")}`,
        `Use one of the values the service knows: ${allowed.join(", ")}`,
      );
    }
  }
  return values.join(",");
}

function pagingValue(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw invalid(
      `${name} must be a non-negative integer, got ${JSON.stringify(value)}`,
      `Pass ${name} as a whole number such as 20`,
    );
  }
  return value;
}

/** The sort and order parameters, checked. */
export function sortQuery(
  options: Pick<SearchAllOptions, "sort" | "order">,
): Record<string, QueryValue> {
  let sort: string | undefined;
  if (options.sort !== undefined) {
    sort = Object.hasOwn(SORTS, options.sort) ? SORTS[options.sort] : undefined;
    if (sort === undefined) {
      throw invalid(
        `sort "${options.sort}" is not one of _score, emotion, bodyPart, intensity`,
        "Sort by _score, emotion, bodyPart or intensity",
      );
    }
  }
  if (options.order !== undefined && !ORDERS.includes(options.order)) {
    throw invalid(
      `order "${options.order}" is not asc or desc`,
      'Use order: "asc" or order: "desc"',
    );
  }
  return { sort, order: options.order };
}

/** The filter parameters, checked; unknown names are an error (a typo would match everything). */
export function filterQuery(filters: SearchFilters): Record<string, QueryValue> {
  for (const name of Object.keys(filters)) {
    if (!FILTER_NAMES.has(name)) {
      throw invalid(
        `unknown filter "${name}"`,
        `Use keyword, emotion, bodyPart, valence, intensity, gender or pid`,
      );
    }
  }
  if (filters.keyword !== undefined && typeof filters.keyword !== "string") {
    throw invalid("keyword must be a string", "Pass keyword as text, such as 涙");
  }
  if (filters.pid !== undefined && (typeof filters.pid !== "string" || filters.pid === "")) {
    throw invalid("pid must be a non-empty string", "Pass the work identifier as a string");
  }
  return {
    keyword: filters.keyword?.trim() || undefined,
    emotion: listValue("emotion", filters.emotion),
    body_part: listValue("bodyPart", filters.bodyPart),
    valence: listValue("valence", filters.valence, VALENCES),
    gender: listValue("gender", filters.gender, GENDERS),
    pid: filters.pid,
  };
}

/** The whole query of one search page, checked. */
export function searchQuery(parameters: SearchParameters): Record<string, QueryValue> {
  return {
    ...filterQuery(parameters),
    ...sortQuery(parameters),
    limit: pagingValue("limit", parameters.limit),
    offset: pagingValue("offset", parameters.offset),
  };
}

/**
 * The intensities asked for, checked. The spec has intensity as a field, a
 * facet and a sort key, but not as a filter parameter, so it is never sent:
 * the caller keeps the matching rows itself.
 */
export function requestedIntensities(filters: SearchFilters): Set<string> | undefined {
  const joined = listValue("intensity", filters.intensity, INTENSITIES);
  return joined === undefined ? undefined : new Set(joined.split(","));
}
