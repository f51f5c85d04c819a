/**
 * Typed row access: a table's rows as objects of its row type, checked
 * against its column schema at run time.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import type { TableSchema } from "./schema.ts";

/**
 * The rows of a table as typed objects. Given the table's schema (such as
 * `ASSET_COLUMNS`), the row type comes from it and the table is checked to
 * hold every column of it; given only a type argument (`rows<AssetRow>(t)`),
 * the rows are typed as asked without a check. A misspelt column
 * (`row.computeAllowd`) then fails `deno check`.
 *
 * @param table The table.
 * @param schema The schema the table was built with; its columns are checked.
 * @returns One object per row, in table order.
 *
 * @example Typed rows of a table
 * ```ts
 * import { buildTable, defineSchema, type TableSchema } from "./mod.ts";
 * interface CountRow {
 *   emotion: string | null;
 *   count: number | null;
 * }
 * const schema: TableSchema<Record<string, unknown>, CountRow> = defineSchema([
 *   { name: "emotion", type: "string" },
 *   { name: "count", type: "integer" },
 * ]);
 * const table = buildTable(schema, [{ emotion: "喜", count: 3 }]);
 * for (const row of rows(table, schema)) console.log(row.emotion, row.count); // 喜 3
 * ```
 */
export function rows<Row>(table: ColumnTable, schema?: TableSchema<never, Row>): Row[] {
  if (schema) {
    const have = new Set(table.columnNames());
    const missing = schema.names.filter((name) => !have.has(name));
    if (missing.length > 0) {
      throw new TidepoolError(
        `Cannot read the rows as the schema's type: the table has no column ${
          missing.length > 4
            ? `${missing.slice(0, 4).join(", ")} and ${missing.length - 4} more`
            : missing.join(", ")
        }`,
        {
          hint:
            "Pass the schema the table was built with, or read a table you selected from with rows<YourType>(table)",
        },
      );
    }
  }
  return table.objects() as Row[];
}
