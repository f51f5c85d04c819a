/**
 * Records to Arquero tables through a column schema. Columns are built as
 * arrays, one push per cell, so pages concatenate in linear time and no row
 * objects are made.
 *
 * @module
 */

import { type ColumnTable, table as arqueroTable } from "arquero";
import { type ColumnType, CONVERTERS, isOfType } from "./convert.ts";
import type { TableSchema } from "./schema.ts";

/** Columns discovered from the records, after the declared ones. */
export interface DynamicColumns<R> {
  /** Returns the extra fields of a record (e.g. its metadata object). */
  read: (record: R) => Record<string, unknown> | undefined | null;
  /** The type of an extra column; default `object` (values as they are). */
  type?: ColumnType | ((name: string) => ColumnType);
  /** A prefix for the extra column names; default none. */
  prefix?: string;
}

/** Options of a {@linkcode TableBuilder}. */
export interface TableBuilderOptions<R> {
  /** Extra columns discovered from the records, appended in order of first appearance. */
  dynamic?: DynamicColumns<R>;
}

const tableTypes = new WeakMap<ColumnTable, Readonly<Record<string, ColumnType>>>();

/**
 * Collects records page by page into columns, then makes one table.
 *
 * @example Two pages into one table
 * ```ts
 * const schema = defineSchema([
 *   { name: "id", type: "string" },
 *   { name: "count", type: "number" },
 * ]);
 * const builder = new TableBuilder(schema);
 * builder.add([{ id: "a", count: "1" }]);
 * builder.add([{ id: "b", count: 2 }]);
 * const table = builder.build();
 * console.log(table.numRows(), table.array("count")); // 2 [1, 2]
 * ```
 */
export class TableBuilder<R = Record<string, unknown>> {
  readonly #schema: TableSchema<R>;
  readonly #columns: unknown[][];
  readonly #dynamic?: DynamicColumns<R>;
  readonly #extra = new Map<string, { values: unknown[]; type: ColumnType }>();
  #rows = 0;

  /**
   * @param schema The declared columns.
   * @param options Extra columns discovered from the records.
   */
  constructor(schema: TableSchema<R>, options: TableBuilderOptions<R> = {}) {
    this.#schema = schema;
    this.#columns = schema.columns.map(() => []);
    this.#dynamic = options.dynamic;
  }

  /** Rows collected so far. */
  get rowCount(): number {
    return this.#rows;
  }

  /** Adds a page of records. */
  add(records: Iterable<R>): void {
    const readers = this.#schema.readers;
    const columns = this.#columns;
    const width = readers.length;
    for (const record of records) {
      for (let c = 0; c < width; c++) columns[c].push(readers[c](record));
      if (this.#dynamic) this.#addExtra(record);
      this.#rows++;
    }
  }

  #addExtra(record: R) {
    const dynamic = this.#dynamic!;
    const fields = dynamic.read(record);
    if (fields) {
      for (const key in fields) {
        const name = (dynamic.prefix ?? "") + key;
        if (this.#schema.names.includes(name)) continue;
        let column = this.#extra.get(name);
        if (!column) {
          const type = typeof dynamic.type === "function"
            ? dynamic.type(name)
            : dynamic.type ?? "object";
          column = { values: new Array(this.#rows).fill(null), type };
          this.#extra.set(name, column);
        }
        column.values.push(CONVERTERS[column.type](fields[key]));
      }
    }
    for (const column of this.#extra.values()) {
      if (column.values.length === this.#rows) column.values.push(null);
    }
  }

  /** Makes the table; the builder can keep collecting afterwards. */
  build(): ColumnTable {
    const data: Record<string, unknown[]> = {};
    const types: Record<string, ColumnType> = {};
    this.#schema.columns.forEach((column, i) => {
      data[column.name] = this.#columns[i];
      types[column.name] = column.type;
    });
    for (const [name, column] of this.#extra) {
      data[name] = column.values;
      types[name] = column.type;
    }
    const table = arqueroTable(data);
    tableTypes.set(table, types);
    return table;
  }
}

/**
 * Builds a table from records in one call.
 *
 * @param schema The declared columns.
 * @param records The records.
 * @param options Extra columns discovered from the records.
 * @returns An Arquero table with the schema's columns, even with no records.
 *
 * @example An empty table still has its columns
 * ```ts
 * const schema = defineSchema([{ name: "id", type: "string" }]);
 * console.log(buildTable(schema, []).columnNames()); // ["id"]
 * ```
 */
export function buildTable<R>(
  schema: TableSchema<R>,
  records: Iterable<R>,
  options: TableBuilderOptions<R> = {},
): ColumnTable {
  const builder = new TableBuilder(schema, options);
  builder.add(records);
  return builder.build();
}

/**
 * The column types of a table: as declared when tidepool built it,
 * otherwise inferred from the first non-null value of each column
 * (`object` for a column of nulls).
 *
 * @param table Any Arquero table.
 * @returns Column name to type, in column order.
 *
 * @example Reading declared types
 * ```ts
 * const schema = defineSchema([{ name: "when", type: "date" }]);
 * console.log(columnTypes(buildTable(schema, []))); // { when: "date" }
 * ```
 */
export function columnTypes(table: ColumnTable): Record<string, ColumnType> {
  const declared = tableTypes.get(table);
  const types: Record<string, ColumnType> = {};
  for (const name of table.columnNames()) {
    types[name] = declared?.[name] ?? inferType(table.array(name) as ArrayLike<unknown>);
  }
  return types;
}

const INFER_ORDER: ColumnType[] = ["boolean", "date", "array", "bigint", "string", "number"];

function inferType(values: ArrayLike<unknown>): ColumnType {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) continue;
    return INFER_ORDER.find((type) => isOfType(value, type)) ?? "object";
  }
  return "object";
}
