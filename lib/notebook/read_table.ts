import { type ColumnTable, fromCSV, fromJSON } from "arquero";
import { TidepoolError } from "../http/errors.ts";
import { tableFromColumns } from "../table/build_table.ts";
import { arrowIPCToColumns } from "../dataset/_arrow_columns.ts";
import { tableFromParquet } from "../dataset/parquet.ts";

/**
 * Reads a table saved by `saveTable`, by the file's extension: `.parquet`
 * and `.arrow`/`.feather` come back with their column types (dates, bigints,
 * arrays, objects), `.csv` with types guessed from the text, `.json` as
 * Arquero's column JSON.
 *
 * @param path The file to read.
 * @returns The table.
 *
 * @example Parquet round trip
 * ```ts
 * import * as aq from "arquero";
 * import { saveTable } from "./save_table.ts";
 * const dir = await Deno.makeTempDir();
 * await saveTable(`${dir}/t.parquet`, aq.table({ when: [new Date(0)], n: [1n] }));
 * const table = await readTable(`${dir}/t.parquet`);
 * console.log(table.get("n", 0)); // 1n
 * ```
 */
export async function readTable(path: string): Promise<ColumnTable> {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (extension === "parquet") return tableFromParquet(await Deno.readFile(path));
  if (extension === "arrow" || extension === "feather") {
    return tableFromColumns(arrowIPCToColumns(await Deno.readFile(path)));
  }
  if (extension === "csv") return fromCSV(await Deno.readTextFile(path));
  if (extension === "json") return fromJSON(await Deno.readTextFile(path));
  throw new TidepoolError(`Cannot read a table from .${extension}: ${path}`, {
    hint: "Use a .parquet, .arrow, .feather, .csv or .json file",
  });
}
