/**
 * A table's bytes in one of the table file formats, for `saveTable` and for
 * writers that are not files (standard output).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { checkOptions } from "../options/check_options.ts";
import { TidepoolError } from "../errors/errors.ts";
import { provenanceJson } from "../table/_provenance_json.ts";
import { checkLists, type ListCells } from "./_list_cells.ts";

/** The table file formats, by the name `saveTable` reads from an extension. */
export type TableFormat = "csv" | "tsv" | "ndjson" | "json" | "arrow" | "parquet";

/** Options of {@linkcode encodeTable} (and of `saveTable`). */
export interface EncodeTableOptions {
  /**
   * List cells in CSV, TSV and Arrow: `"json"` (default, `["a","b"]`), `"join"`
   * (`a; b`, with {@linkcode EncodeTableOptions.separator}) or `"first"` (the
   * first item, empty when none). Parquet, JSON and NDJSON keep lists as lists.
   */
  lists?: ListCells;
  /** The separator of `lists: "join"`; `"; "` unless given. */
  separator?: string;
  /**
   * In CSV, a text cell that a spreadsheet would run as a formula (it starts
   * with `=`, `+`, `-`, `@`, a tab or a carriage return and is not a plain
   * number) is written with a leading `'`, since cells come from the web;
   * so is such a column name in the header row. `false` writes both as they
   * are. Default `true`.
   */
  escapeFormulas?: boolean;
}

const EXTENSIONS: Readonly<Record<string, TableFormat>> = {
  csv: "csv",
  tsv: "tsv",
  tab: "tsv",
  ndjson: "ndjson",
  jsonl: "ndjson",
  json: "json",
  arrow: "arrow",
  feather: "arrow",
  parquet: "parquet",
};

/**
 * The format a file name's extension names: `.csv`, `.tsv` or `.tab`, `.ndjson` or `.jsonl`,
 * `.json`, `.arrow` or `.feather`, `.parquet` (any case).
 *
 * @param path A file name or path.
 * @returns The format, or undefined for another extension or none.
 *
 * @example
 * ```ts
 * console.log(formatOfPath("out/records.JSONL")); // "ndjson"
 * ```
 */
export function formatOfPath(path: string): TableFormat | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? undefined : EXTENSIONS[name.slice(dot + 1).toLowerCase()];
}

/**
 * Encodes a table in a table file format: CSV (UTF-8, lists and objects as
 * JSON text unless `lists` says otherwise, dates as ISO 8601, formula-like
 * text prefixed with `'`), TSV (the same cells, tab-separated, with tabs,
 * line breaks and backslashes in a cell written `\t`, `\n`, `\\`), NDJSON (one JSON object per row; bigints as
 * digit text, dates as ISO 8601, NaN and the infinities as null), JSON
 * (each column's name and type, then its values), Arrow IPC (types and
 * provenance kept) or Parquet (ZSTD, types and provenance kept).
 *
 * @param table The table.
 * @param format The format.
 * @param options How list cells are flattened and whether formula-like cells are escaped.
 * @returns The file's bytes.
 *
 * @example A table as NDJSON
 * ```ts
 * import * as aq from "arquero";
 * const bytes = await encodeTable(aq.table({ n: [1n], tags: [["a"]] }), "ndjson");
 * console.log(new TextDecoder().decode(bytes)); // {"n":"1","tags":["a"]}
 * ```
 */
export async function encodeTable(
  table: ColumnTable,
  format: TableFormat,
  options: EncodeTableOptions = {},
): Promise<Uint8Array> {
  checkOptions("encodeTable", options, {
    lists: "any",
    separator: "string",
    escapeFormulas: "boolean",
  });
  const lists = checkLists(options.lists);
  const flat = { lists, separator: options.separator ?? "; " };
  // Each format's encoder loads with its first file, so that importing
  // tidepool stays quick (bench/import_bench.ts).
  switch (format) {
    case "csv":
      return (await import("./_csv.ts")).encodeCsv(table, flat, options.escapeFormulas !== false);
    case "tsv":
      return (await import("./_tsv.ts")).encodeTsv(table, flat, options.escapeFormulas !== false);
    case "ndjson":
      return (await import("./_ndjson.ts")).encodeNdjson(table);
    case "json":
      return (await import("./_json.ts")).encodeJson(table);
    case "arrow": {
      const { encodeArrow } = await import("./_arrow.ts");
      return encodeArrow(table, flat, options.lists !== undefined, provenanceJson(table));
    }
    case "parquet":
      return await (await import("../dataset/parquet.ts")).tableToParquet(table);
    default:
      throw new TidepoolError(`Unknown table format: ${String(format)}`, {
        hint: "Use csv, tsv, ndjson, json, arrow or parquet",
      });
  }
}
