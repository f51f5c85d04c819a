/**
 * The sandbox's search engine: a small Typesense look-alike over the DDOs,
 * with the index fields below. A filter on a field that is not in the index,
 * or a filter that does not parse, is rejected, and the node then answers
 * `[]` (no collection answered), as deployed nodes do.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";

/** Reads the values of one index field from a DDO. */
type FieldReader = (ddo: Ddo) => (string | number)[];

const nft = (ddo: Ddo) => ddo.indexedMetadata?.nft;

/** The index fields and whether they are numeric. */
export const INDEX_FIELDS: Record<string, { read: FieldReader; numeric?: boolean }> = {
  id: { read: (d) => [d.id] },
  chainId: { read: (d) => [d.chainId], numeric: true },
  nftAddress: { read: (d) => [d.nftAddress] },
  version: { read: (d) => [d.version] },
  "metadata.type": { read: (d) => [d.metadata.type] },
  "metadata.name": { read: (d) => [d.metadata.name] },
  "metadata.description": { read: (d) => [d.metadata.description] },
  "metadata.author": { read: (d) => [d.metadata.author] },
  "metadata.license": { read: (d) => [d.metadata.license] },
  "metadata.tags": { read: (d) => d.metadata.tags ?? [] },
  "metadata.created": { read: (d) => [d.metadata.created] },
  "metadata.updated": { read: (d) => [d.metadata.updated] },
  "services.type": { read: (d) => d.services.map((s) => s.type) },
  "services.id": { read: (d) => d.services.map((s) => s.id) },
  "datatokens.address": { read: (d) => (d.datatokens ?? []).map((t) => t.address) },
  "indexedMetadata.nft.owner": { read: (d) => (nft(d) ? [nft(d)!.owner] : []) },
  "indexedMetadata.nft.state": { read: (d) => (nft(d) ? [nft(d)!.state] : []), numeric: true },
  "indexedMetadata.event.block": {
    read: (
      d,
    ) => (d.indexedMetadata?.event?.block === undefined ? [] : [d.indexedMetadata.event.block]),
    numeric: true,
  },
};

/** A compiled filter. */
export type Predicate = (ddo: Ddo) => boolean;

/** A filter the engine refuses. */
export class FilterRejected extends Error {}

function same(a: string | number, b: string | number, numeric: boolean): boolean {
  if (numeric) return Number(a) === Number(b);
  // Typesense matches string filters without regard to case.
  return String(a).toLowerCase() === String(b).toLowerCase();
}

function splitValues(text: string): string[] {
  const values: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of text) {
    if (char === "`") quoted = !quoted;
    else if (char === "," && !quoted) {
      values.push(current.trim());
      current = "";
    } else current += char;
  }
  if (quoted) throw new FilterRejected("unclosed backtick");
  values.push(current.trim());
  return values;
}

function compileClause(text: string): Predicate {
  const match = /^\s*([A-Za-z0-9_.@]+)\s*:\s*(!=|:=|=|>=|<=|>|<)?\s*(.*?)\s*$/s.exec(text);
  if (!match) throw new FilterRejected(`cannot parse ${text}`);
  const [, field, op = "=", rawValue] = match;
  const spec = INDEX_FIELDS[field];
  if (!spec) throw new FilterRejected(`field ${field} is not in the index`);
  const numeric = !!spec.numeric;
  const isList = rawValue.startsWith("[") && rawValue.endsWith("]");
  const values = splitValues(isList ? rawValue.slice(1, -1) : rawValue);
  if (values.some((v) => v === "")) throw new FilterRejected(`empty value in ${text}`);
  if (numeric && values.some((v) => Number.isNaN(Number(v)))) {
    throw new FilterRejected(`${field} is numeric`);
  }
  if ([">", "<", ">=", "<="].includes(op)) {
    if (!numeric || isList) throw new FilterRejected(`range on ${field} is not supported`);
    const limit = Number(values[0]);
    const test = {
      ">": (n: number) => n > limit,
      "<": (n: number) => n < limit,
      ">=": (n: number) => n >= limit,
      "<=": (n: number) => n <= limit,
    }[op]!;
    return (ddo) => spec.read(ddo).some((v) => test(Number(v)));
  }
  const anyEqual = (ddo: Ddo) =>
    spec.read(ddo).some((have) => values.some((want) => same(have, want, numeric)));
  return op === "!=" ? (ddo) => !anyEqual(ddo) : anyEqual;
}

/** Splits at a top-level operator (outside backticks, brackets and parentheses). */
function splitTop(text: string, operator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "`") quoted = !quoted;
    if (quoted) continue;
    if (char === "(" || char === "[") depth++;
    if (char === ")" || char === "]") depth--;
    if (depth === 0 && text.startsWith(operator, i)) {
      parts.push(text.slice(start, i));
      start = i + operator.length;
      i += operator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Compiles a `filter_by` expression (`&&`, `||`, parentheses, clauses). */
export function compileFilter(text: string): Predicate {
  const trimmed = text.trim();
  if (trimmed === "") return () => true;
  const ors = splitTop(trimmed, "||");
  if (ors.length > 1) {
    const parts = ors.map(compileFilter);
    return (ddo) => parts.some((part) => part(ddo));
  }
  const ands = splitTop(trimmed, "&&");
  if (ands.length > 1) {
    const parts = ands.map(compileFilter);
    return (ddo) => parts.every((part) => part(ddo));
  }
  if (trimmed.startsWith("(") && trimmed.endsWith(")")) return compileFilter(trimmed.slice(1, -1));
  return compileClause(trimmed);
}

/** Compiles `q` over `query_by`: every word of q must start a word of one of the fields. */
export function compileText(q: string | undefined, queryBy: string | undefined): Predicate {
  const words = (q ?? "*").toLowerCase().split(/\s+/).filter((w) => w && w !== "*");
  if (words.length === 0) return () => true;
  const fields = (queryBy ?? "").split(",").map((f) => f.trim()).filter(Boolean);
  if (fields.length === 0) throw new FilterRejected("q needs query_by");
  const readers = fields.map((field) => {
    const spec = INDEX_FIELDS[field];
    if (!spec) throw new FilterRejected(`query_by field ${field} is not in the index`);
    return spec.read;
  });
  return (ddo) => {
    const tokens = readers.flatMap((read) =>
      read(ddo).flatMap((value) => String(value).toLowerCase().split(/[^\p{L}\p{N}]+/u))
    );
    return words.every((word) => tokens.some((token) => token.startsWith(word)));
  };
}

/** Compiles a `sort_by` expression (`field:asc,field:desc`). */
export function compileSort(sortBy: string | undefined): ((a: Ddo, b: Ddo) => number) | undefined {
  if (!sortBy || sortBy.trim() === "") return undefined;
  const keys = sortBy.split(",").map((part) => {
    const [field, order = "asc"] = part.trim().split(":");
    const spec = INDEX_FIELDS[field];
    if (!spec || (order !== "asc" && order !== "desc")) {
      throw new FilterRejected(`cannot sort by ${part}`);
    }
    return { read: spec.read, sign: order === "asc" ? 1 : -1 };
  });
  return (a, b) => {
    for (const { read, sign } of keys) {
      const x = read(a)[0];
      const y = read(b)[0];
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}
