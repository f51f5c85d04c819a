import type { ColumnTable } from "arquero";
import { createHash } from "node:crypto";
import { columnTypes } from "./build_table.ts";
import type { ColumnType } from "./convert.ts";
import { canonicalLines } from "./canonical_table.ts";

/** What {@linkcode tableDigest} returns: the shape of a table and the hash of its content. */
export interface TableDigest {
  /** The column names, in order. */
  columns: string[];
  /** The type of each column, from `columnTypes`. */
  types: Record<string, ColumnType>;
  /** The number of rows. */
  rows: number;
  /** SHA-256 (hex) of the table's canonical text (`canonicalTable`). */
  sha256: string;
}

/**
 * The digest of a table: its columns, their types, its row count and the
 * SHA-256 of its canonical text. Two tables have the same `sha256` exactly
 * when their column names, types and values are the same, so a notebook
 * re-run from its recording can be checked table by table.
 *
 * @param table The table.
 * @returns The digest.
 *
 * @example Equal tables, equal digests; a bigint is not a number
 * ```ts
 * import * as aq from "arquero";
 * const a = tableDigest(aq.table({ n: [1] })).sha256;
 * const b = tableDigest(aq.table({ n: [1n] })).sha256;
 * console.log(a === tableDigest(aq.table({ n: [1] })).sha256, a === b); // true false
 * ```
 */
export function tableDigest(table: ColumnTable): TableDigest {
  const known = digests.get(table);
  if (known) return structuredClone(known);
  const digest = computeDigest(table);
  digests.set(table, digest);
  return structuredClone(digest);
}

/**
 * Digests already computed, by table: an Arquero table never changes, and
 * the notebook display digests every table it shows (about 5 s for a
 * million rows), so a table shown again costs nothing the second time.
 */
const digests = new WeakMap<ColumnTable, TableDigest>();

function computeDigest(table: ColumnTable): TableDigest {
  const types = columnTypes(table);
  // Line by line: the same bytes as canonicalTable's text, never all held at once.
  const hash = createHash("sha256");
  let separator = "";
  for (const line of canonicalLines(table, types)) {
    hash.update(separator + line);
    separator = "\n";
  }
  return {
    columns: table.columnNames(),
    types,
    rows: table.numRows(),
    sha256: hash.digest("hex"),
  };
}
