/**
 * Keyword in context as a table: one row per occurrence of a keyword in the
 * hits' context, split into the text before, the keyword and the text after.
 *
 * @module
 */

import { checkOptions } from "../options/check_options.ts";
import type { ColumnTable } from "arquero";
import { deriveProvenance } from "../table/derived_provenance.ts";
import { TidepoolError } from "../errors/errors.ts";
import { buildTable, defineSchema, type TableSchema } from "../table/mod.ts";

/** One line of a keyword-in-context table. */
export interface KwicRow {
  /** Row of the hit in the hits table (from 0) */
  hit: number | null;
  /** Expression id, when the hits have one */
  id: string | null;
  /** Work title */
  title: string | null;
  /** Context before the keyword (trimmed to `span`, with `…`) */
  left: string | null;
  /** The keyword as it occurs */
  keyword: string | null;
  /** Context after the keyword (trimmed to `span`, with `…`) */
  right: string | null;
}

/** The columns of {@linkcode kwic}'s table. */
export const KWIC_COLUMNS: TableSchema<KwicRow, KwicRow> = defineSchema([
  { name: "hit", type: "integer", description: "Row of the hit in the hits table (from 0)" },
  { name: "id", type: "string", description: "Expression id, when the hits have one" },
  { name: "title", type: "string", description: "Work title" },
  { name: "left", type: "string", description: "Context before the keyword" },
  { name: "keyword", type: "string", description: "The keyword as it occurs" },
  { name: "right", type: "string", description: "Context after the keyword" },
]);

/** Options of {@linkcode kwic}. */
export interface KwicOptions {
  /** Characters of context kept on each side, the cut marked with `…`; default all. */
  span?: number;
}

/**
 * Splits a context around one occurrence of a match at `at`, each side cut
 * to `span` characters (marked with `…`).
 *
 * @param context The text.
 * @param at Where the match starts.
 * @param match The match.
 * @param span Characters kept on each side.
 * @returns The left context, the match and the right context.
 */
export function splitAt(
  context: string,
  at: number,
  match: string,
  span = Infinity,
): [string, string, string] {
  const left = context.slice(0, at);
  const right = context.slice(at + match.length);
  return [
    left.length > span ? `…${left.slice(-span)}` : left,
    match,
    right.length > span ? `${right.slice(0, span)}…` : right,
  ];
}

/**
 * Keyword-in-context lines as a table (`hit, id, title, left, keyword,
 * right`): one row per occurrence of the keyword in each hit's `context`, in
 * hit order; hits whose context lacks it give no row. Without a keyword each
 * hit's own `surface` is the keyword.
 *
 * @param hits Hits with `title` and `context` (and `surface` when no keyword is given).
 * @param keyword The word to find; default each hit's `surface`.
 * @param options How much context to keep.
 * @returns The KWIC table, columns of {@linkcode KWIC_COLUMNS}; its
 *   provenance, when the hits have one, is `kwic` of theirs (see `provenance`).
 *
 * @example Lines for 涙
 * ```ts
 * import * as aq from "arquero";
 * const hits = aq.table({ title: ["こころ"], context: ["先生は涙をこぼした。"] });
 * const lines = kwic(hits, "涙");
 * console.log(lines.get("left", 0), lines.get("right", 0)); // 先生は をこぼした。
 * ```
 */
export function kwic(hits: ColumnTable, keyword?: string, options: KwicOptions = {}): ColumnTable {
  checkOptions("kwic", options, { span: "integer" });
  const names = new Set(hits.columnNames());
  const needed = keyword === undefined ? ["title", "context", "surface"] : ["title", "context"];
  const missing = needed.filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new TidepoolError(
      `Cannot make keyword-in-context lines: no ${missing.join(", ")} column`,
      {
        hint: "Pass the hits of search() or searchAll(), which have title, surface and context",
      },
    );
  }
  if (keyword === "") {
    throw new TidepoolError("Cannot make keyword-in-context lines: the keyword is empty", {
      hint: "Give a word, or leave it out to use each hit's surface",
    });
  }
  const span = options.span ?? Infinity;
  const lines: KwicRow[] = [];
  const hasId = names.has("id");
  (hits.objects() as Record<string, unknown>[]).forEach((hit, index) => {
    const context = String(hit.context ?? "");
    const match = keyword ?? String(hit.surface ?? "");
    if (match === "") return;
    for (let at = context.indexOf(match); at >= 0; at = context.indexOf(match, at + match.length)) {
      const [left, centre, right] = splitAt(context, at, match, span);
      lines.push({
        hit: index,
        id: hasId ? (hit.id as string | null) : null,
        title: hit.title as string | null,
        left,
        keyword: centre,
        right,
      });
    }
  });
  return deriveProvenance(buildTable(KWIC_COLUMNS, lines), {
    operation: "kwic",
    inputs: { hits },
    params: {
      keyword,
      span: options.span,
    },
  });
}
