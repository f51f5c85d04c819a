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
import { compileAppender, type PageAppender } from "./_compile.ts";

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

const appenders = new WeakMap<TableSchema<never>, PageAppender<never>>();

/** One compiled appender per schema, made on first use. */
function compiledAppender<R>(schema: TableSchema<R>): PageAppender<R> {
  const key = schema as unknown as TableSchema<never>;
  let append = appenders.get(key);
  if (!append) {
    append = compileAppender(schema.columns) as PageAppender<never>;
    appenders.set(key, append);
  }
  return append as unknown as PageAppender<R>;
}

const tableTypes = new WeakMap<ColumnTable, Readonly<Record<string, ColumnType>>>();

/**
 * Collects records page by page into columns, then makes one table.
 *
 * @example Two pages into one table
 * ```ts
 * import { buildTable, columnTypes, TableBuilder } from "./build_table.ts";
 * import { defineSchema } from "./schema.ts";
 *
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
  /** Per column, the arrays of each page; joined once in build(). */
  readonly #chunks: unknown[][][];
  readonly #dynamic?: DynamicColumns<R>;
  readonly #append: PageAppender<R>;
  readonly #extra = new Map<string, { values: unknown[]; type: ColumnType }>();
  #rows = 0;

  /**
   * Starts an empty table of the schema's columns; feed it with `add` and finish with `build`.
   *
   * @param schema The declared columns.
   * @param options Extra columns discovered from the records.
   */
  constructor(schema: TableSchema<R>, options: TableBuilderOptions<R> = {}) {
    this.#schema = schema;
    this.#chunks = schema.columns.map(() => []);
    this.#dynamic = options.dynamic;
    this.#append = compiledAppender(schema);
  }

  /** Rows collected so far. */
  get rowCount(): number {
    return this.#rows;
  }

  /** Adds a page of records. */
  add(records: Iterable<R>): void {
    const page = Array.isArray(records) ? records as readonly R[] : Array.from(records);
    if (page.length === 0) return;
    const columns = this.#append(page);
    for (let c = 0; c < columns.length; c++) this.#chunks[c].push(columns[c]);
    if (this.#dynamic) {
      for (const record of page) {
        this.#addExtra(record);
        this.#rows++;
      }
    } else {
      this.#rows += page.length;
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
      data[column.name] = joinChunks(this.#chunks[i], this.#rows);
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

/** Joins page arrays into one column array in a single linear copy. */
function joinChunks(chunks: unknown[][], total: number): unknown[] {
  if (chunks.length === 1) return chunks[0];
  const out = new Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) out[offset + i] = chunk[i];
    offset += chunk.length;
  }
  return out;
}

/** One finished column for {@linkcode tableFromColumns}. */
export interface TypedColumn {
  /** Column name. */
  name: string;
  /** Declared type; every value must be of it or null. */
  type: ColumnType;
  /** The values, one per row. */
  values: unknown[];
}

/**
 * Makes a table from columns already converted to their types, for readers that
 * decide a column's type from its values (SPARQL results) and so build columns
 * directly rather than through a schema. The types are recorded as declared.
 *
 * @param columns The columns, all of the same length.
 * @returns The table, its types readable with {@linkcode columnTypes}.
 *
 * @example Two typed columns
 * ```ts
 * import { columnTypes, tableFromColumns } from "./build_table.ts";
 *
 * const table = tableFromColumns([
 *   { name: "id", type: "string", values: ["a", "b"] },
 *   { name: "count", type: "number", values: [1, null] },
 * ]);
 * console.log(columnTypes(table)); // { id: "string", count: "number" }
 * ```
 */
export function tableFromColumns(columns: readonly TypedColumn[]): ColumnTable {
  const data: Record<string, unknown[]> = {};
  const types: Record<string, ColumnType> = {};
  const length = columns[0]?.values.length ?? 0;
  for (const column of columns) {
    if (column.values.length !== length) {
      throw new RangeError(
        `Column ${column.name} has ${column.values.length} values where the others have ${length}`,
      );
    }
    data[column.name] = column.values;
    types[column.name] = column.type;
  }
  const table = arqueroTable(data);
  tableTypes.set(table, types);
  return table;
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
 * import { buildTable, columnTypes, TableBuilder } from "./build_table.ts";
 * import { defineSchema } from "./schema.ts";
 *
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
 * import { buildTable, columnTypes, TableBuilder } from "./build_table.ts";
 * import { defineSchema } from "./schema.ts";
 *
 * const schema = defineSchema([{ name: "when", type: "date" }]);
 * console.log(columnTypes(buildTable(schema, []))); // { when: "date" }
 * ```
 */
export function columnTypes(table: ColumnTable): Record<string, ColumnType> {
  const declared = tableTypes.get(table);
  const types: Record<string, ColumnType> = {};
  for (const name of table.columnNames()) {
    types[name] = declared?.[name] ?? inferType(table.column(name)!);
  }
  return types;
}

const INFER_ORDER: ColumnType[] = ["boolean", "date", "array", "bigint", "string", "number"];

/** The type of a column's first present value, read in place (no copy of the column). */
function inferType(values: { readonly length: number; at(row: number): unknown }): ColumnType {
  for (let i = 0; i < values.length; i++) {
    const value = values.at(i);
    if (value === null || value === undefined) continue;
    return INFER_ORDER.find((type) => isOfType(value, type)) ?? "object";
  }
  return "object";
}
