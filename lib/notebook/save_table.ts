import { type ColumnTable, toArrowIPC, toCSV, toJSON } from "arquero";
import { TidepoolError } from "../http/errors.ts";
import { columnTypes } from "../table/build_table.ts";
import { tableToParquet } from "../dataset/parquet.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";

/**
 * Saves a table by the file's extension: `.csv` (UTF-8, arrays and objects
 * as JSON text, dates as ISO 8601), `.arrow` or `.feather` (Arrow IPC, types
 * kept), `.parquet` (ZSTD; dates as UTC timestamps, bigints as int64, arrays
 * as Parquet lists, objects as JSON text, every type read back by
 * `readTable`), or `.json` (Arquero's column JSON). The file
 * appears under its final name only when complete.
 *
 * @param path Where to write; the folder must exist.
 * @param table The table.
 * @returns The number of bytes written.
 *
 * @example Saving a CSV
 * ```ts
 * import * as aq from "arquero";
 * const dir = await Deno.makeTempDir();
 * await saveTable(`${dir}/counts.csv`, aq.table({ emotion: ["喜"], count: [3] }));
 * ```
 */
export async function saveTable(path: string, table: ColumnTable): Promise<number> {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  let bytes: Uint8Array;
  if (extension === "csv") {
    bytes = new TextEncoder().encode(toCSV(jsonCells(table)));
  } else if (extension === "arrow" || extension === "feather") {
    bytes = toArrowIPC(jsonCells(table, ["object"]), { format: "file" });
  } else if (extension === "parquet") {
    bytes = await tableToParquet(table);
  } else if (extension === "json") {
    bytes = new TextEncoder().encode(toJSON(table));
  } else {
    throw new TidepoolError(`Cannot save a table as .${extension}: ${path}`, {
      hint: "Use a .csv, .arrow, .feather, .parquet or .json file name",
    });
  }
  await writeFileAtomic(path, bytes);
  return bytes.byteLength;
}

/** Turns array and object cells into JSON text, for formats that hold only scalars. */
function jsonCells(
  table: ColumnTable,
  kinds: readonly string[] = ["array", "object"],
): ColumnTable {
  const types = columnTypes(table);
  const derived: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(types)) {
    if (!kinds.includes(type)) continue;
    const values = table.array(name) as ArrayLike<unknown>;
    derived[name] = Array.from(
      values,
      (value) =>
        value === null || value === undefined
          ? null
          : JSON.stringify(value, (_key, item) => typeof item === "bigint" ? `${item}` : item),
    );
  }
  return Object.keys(derived).length ? table.assign(derived as Record<string, unknown[]>) : table;
}
