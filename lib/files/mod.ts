/**
 * Table files: {@linkcode saveTable} and {@linkcode readTable} by the file's
 * extension (CSV with formula-like cells neutralised, NDJSON, JSON, Arrow, Parquet),
 * each keeping the table's provenance. Used by scripts, the notebook and
 * the paper's bundle alike.
 *
 * @module
 */

export { type ListCells, saveTable, type SaveTableOptions } from "./save_table.ts";
export { readTable, type ReadTableOptions } from "./read_table.ts";
export {
  encodeTable,
  type EncodeTableOptions,
  formatOfPath,
  type TableFormat,
} from "./encode_table.ts";
