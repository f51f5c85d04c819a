/**
 * SQL over Parquet files and datasets with DuckDB, the embedded engine,
 * returning Arquero tables.
 *
 * @module
 */

import { checkOptions } from "../options/check_options.ts";
import type { ColumnTable } from "arquero";
import type { DuckDBType } from "@duckdb/node-api";
import { TidepoolError } from "../errors/errors.ts";
import { tableFromColumns } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";

type DuckDB = typeof import("@duckdb/node-api");

let loading: Promise<DuckDB> | undefined;

/** DuckDB's native binding, loaded on first use so importing tidepool does not pay for it. */
function duckdb(): Promise<DuckDB> {
  loading ??= import("@duckdb/node-api");
  return loading;
}

/** Options of {@linkcode query}. */
export interface QueryOptions {
  /**
   * Views to define before the query, name to Parquet location: a folder
   * (every `.parquet` file below it, hive-style `key=value` folders read as
   * columns, files with different columns unified by name), a file, or a glob.
   */
  views?: Record<string, string>;
}

/**
 * Quotes text as a SQL string literal.
 *
 * @param text Any text.
 * @returns The literal, single quotes doubled.
 *
 * @example
 * ```ts
 * console.log(sqlString("it's")); // 'it''s'
 * ```
 */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Quotes a name as a SQL identifier.
 *
 * @param name Any name.
 * @returns The identifier, double quotes doubled.
 *
 * @example
 * ```ts
 * console.log(sqlIdentifier("dc:title")); // "dc:title"
 * ```
 */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The SQL that reads a Parquet location: a folder as a hive-partitioned
 * dataset, a file or glob as given.
 *
 * @param location A folder, a `.parquet` file or a glob.
 * @returns A `read_parquet(...)` table expression.
 *
 * @example A dataset folder
 * ```ts
 * console.log(readParquetSql("out/records"));
 * // read_parquet('out/records/**\/*.parquet', hive_partitioning = true, union_by_name = true)
 * ```
 */
export function readParquetSql(location: string): string {
  const isFolder = !/\.parquet$/i.test(location) && !/[*?[]/.test(location);
  const pattern = isFolder ? `${location.replace(/\/+$/, "")}/**/*.parquet` : location;
  return `read_parquet(${sqlString(pattern)}, hive_partitioning = true, union_by_name = true)`;
}

/**
 * Runs SQL in an in-memory DuckDB and returns the result as a table.
 * DuckDB reads Parquet files and folders directly (`read_parquet`), so a
 * harvest written as a dataset can be counted, grouped and joined without
 * loading it. Column types follow DuckDB's: integers up to 32 bits as
 * `integer`, BIGINT and wider as `bigint` (cast to DOUBLE for plotting),
 * floats and decimals as `number`, dates and timestamps as `date`, lists as
 * `array`, structs and maps as `object`.
 *
 * DuckDB's native library loads on the first call, not on import.
 *
 * @param sql One SQL statement (the last one's result is returned).
 * @param options Views over Parquet locations.
 * @returns The result as an Arquero table.
 * @throws {TidepoolError} When DuckDB rejects the SQL, with DuckDB's message.
 *
 * @example Counting a harvest by set
 * ```ts
 * import * as aq from "arquero";
 * import { writeDataset } from "./dataset_writer.ts";
 * const dir = `${await Deno.makeTempDir()}/harvest`;
 * async function* pages() {
 *   yield aq.table({ set: ["letters", "maps", "letters"], id: ["a", "b", "c"] });
 * }
 * await writeDataset(pages(), dir, {});
 * const counts = await query(
 *   "SELECT set, count(*) AS n FROM records GROUP BY set ORDER BY n DESC",
 *   { views: { records: dir } },
 * );
 * console.log(counts.objects());
 * ```
 */
export async function query(sql: string, options: QueryOptions = {}): Promise<ColumnTable> {
  checkOptions("query", options, { views: "object" });
  if (typeof sql !== "string" || sql.trim() === "") {
    throw new TidepoolError(
      `Cannot run the query: ${
        typeof sql === "string" ? "the SQL is empty" : `expected SQL text, got ${typeof sql}`
      }`,
      {
        hint:
          'Write a SELECT, such as query("SELECT count(*) FROM orders", { views: { orders: "data/orders" } })',
      },
    );
  }
  const { DuckDBInstance, DuckDBTypeId } = await duckdb();
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const [name, location] of Object.entries(options.views ?? {})) {
      await run(
        connection,
        `CREATE VIEW ${sqlIdentifier(name)} AS SELECT * FROM ${readParquetSql(location)}`,
      );
    }
    const result = await run(connection, sql);
    const names = result.columnNames();
    const types = result.columnTypes();
    const values = result.getColumnsJS() as unknown[][];
    return tableFromColumns(names.map((name, i) => ({
      name,
      type: columnType(types[i], DuckDBTypeId),
      values: values[i] ?? [],
    })));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

type Connection = Awaited<
  ReturnType<Awaited<ReturnType<DuckDB["DuckDBInstance"]["create"]>>["connect"]>
>;

async function run(connection: Connection, sql: string) {
  try {
    return await connection.runAndReadAll(sql);
  } catch (error) {
    throw new TidepoolError("DuckDB could not run the query", {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "DuckDB said",
      hint: "Check the SQL; a dataset folder is read with read_parquet('folder/**/*.parquet')",
    });
  }
}

function columnType(type: DuckDBType, ids: DuckDB["DuckDBTypeId"]): ColumnType {
  switch (type.typeId) {
    case ids.VARCHAR:
    case ids.UUID:
    case ids.ENUM:
      return "string";
    case ids.FLOAT:
    case ids.DOUBLE:
    case ids.DECIMAL:
      return "number";
    case ids.TINYINT:
    case ids.SMALLINT:
    case ids.INTEGER:
    case ids.UTINYINT:
    case ids.USMALLINT:
    case ids.UINTEGER:
      return "integer";
    case ids.BIGINT:
    case ids.UBIGINT:
    case ids.HUGEINT:
    case ids.UHUGEINT:
      return "bigint";
    case ids.BOOLEAN:
      return "boolean";
    case ids.DATE:
    case ids.TIMESTAMP:
    case ids.TIMESTAMP_S:
    case ids.TIMESTAMP_MS:
    case ids.TIMESTAMP_NS:
    case ids.TIMESTAMP_TZ:
      return "date";
    case ids.LIST:
    case ids.ARRAY:
      return "array";
    default:
      return "object";
  }
}
