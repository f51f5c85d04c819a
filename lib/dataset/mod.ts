/**
 * Tables past memory: Parquet files and hive-partitioned Parquet datasets
 * written with parquet-wasm, queried with DuckDB. Both load on first use, so
 * importing this module costs neither.
 *
 * @module
 */

export {
  columnsToParquet,
  type ParquetBounds,
  type ParquetShape,
  parquetShape,
  tableFromParquet,
  tableToParquet,
} from "./parquet.ts";
export type { TypedColumn } from "../table/build_table.ts";
export { query, type QueryOptions, readParquetSql, sqlIdentifier, sqlString } from "./query.ts";
export {
  type DatasetPartition,
  type DatasetSummary,
  DatasetWriter,
  type DatasetWriterOptions,
  writeDataset,
} from "./dataset_writer.ts";
