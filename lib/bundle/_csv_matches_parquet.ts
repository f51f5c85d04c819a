/**
 * Whether a bundle's CSV file says what its Parquet file says: a reader
 * opens the CSV, a program the Parquet, and both must read the same table.
 * The Parquet table is written as the bundle's CSV is written
 * (`_csv_cells.ts`, then the CSV encoder; with formula-like text escaped,
 * as bundles are by default, or not), and the texts are compared cell by
 * cell, as text: the column names, the number of rows, then each cell.
 *
 * @module
 */

import { type ColumnTable, fromCSV } from "arquero";
import { columnTypes } from "../table/build_table.ts";
import { csvCells } from "./_csv_cells.ts";

/** The CSV text the bundle writes for a table, formula-like text escaped or not. */
async function csvTextOf(table: ColumnTable, escapeFormulas: boolean): Promise<string> {
  const { encodeTable } = await import("../files/encode_table.ts");
  const cells = csvCells(table, columnTypes(table), escapeFormulas);
  return new TextDecoder().decode(
    await encodeTable(cells.table, "csv", { escapeFormulas: false }),
  );
}

/** A CSV text as text cells: the header, then each row. */
function textGrid(text: string): { names: string[]; rows: string[][] } {
  const table = fromCSV(text, { autoType: false });
  const names = table.columnNames();
  const columns = names.map((name) => Array.from(table.array(name) as ArrayLike<unknown>));
  const rows: string[][] = [];
  for (let row = 0; row < table.numRows(); row++) {
    rows.push(columns.map((column) => column[row] == null ? "" : String(column[row])));
  }
  return { names, rows };
}

/** A cell quoted for a message, cut to 40 characters. */
function quoted(text: string): string {
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
  return shown;
}

/** The first difference of two text grids, in words, or undefined. */
function firstDifference(
  csv: { names: string[]; rows: string[][] },
  parquet: { names: string[]; rows: string[][] },
): string | undefined {
  if (csv.names.join("\u0000") !== parquet.names.join("\u0000")) {
    return `its columns are ${csv.names.map(quoted).join(", ")}, the Parquet file's ${
      parquet.names.map(quoted).join(", ")
    }`;
  }
  if (csv.rows.length !== parquet.rows.length) {
    return `it has ${csv.rows.length} rows, the Parquet file ${parquet.rows.length}`;
  }
  for (let row = 0; row < csv.rows.length; row++) {
    for (let column = 0; column < csv.names.length; column++) {
      const [a, b] = [csv.rows[row][column], parquet.rows[row][column]];
      if (a !== b) {
        return `row ${row + 1}, column ${quoted(csv.names[column])}: the CSV has ${
          quoted(a)
        }, the Parquet file ${quoted(b)}`;
      }
    }
  }
  return undefined;
}

/**
 * How a CSV file differs from the Parquet file of the same table, or
 * undefined when a reader of either reads the same cells.
 *
 * @param csvText The CSV file's text.
 * @param parquet The table the Parquet file holds.
 * @returns The first difference in words (columns, rows, or the first differing cell).
 *
 * @example
 * ```ts ignore
 * csvDiffersFromParquet("k,n\nA,99999\n", parquetTable); // 'row 1, column "n": the CSV has "99999", the Parquet file "10"'
 * ```
 */
export async function csvDiffersFromParquet(
  csvText: string,
  parquet: ColumnTable,
): Promise<string | undefined> {
  const escaped = await csvTextOf(parquet, true);
  if (escaped === csvText) return undefined;
  const plain = await csvTextOf(parquet, false);
  if (plain === csvText) return undefined;
  const csv = textGrid(csvText);
  // Of the two ways the bundle may have written it, the closer one names the difference.
  const differences = [textGrid(escaped), textGrid(plain)].map((grid) =>
    firstDifference(csv, grid)
  );
  if (differences.some((difference) => difference === undefined)) return undefined;
  return differences[0];
}

/**
 * Compares a table file with the other file of its table (`<stem>.csv` with
 * `<stem>.parquet`) once both are read: a CSV that says something else than
 * its Parquet is a problem row naming the table and the first differing cell.
 *
 * @param path The table file just read (`.csv` or `.parquet`).
 * @param read Its table, and a CSV file's text.
 * @param pending The file of another table read before, kept until its pair comes (paths sorted).
 * @param found Takes the problem row.
 *
 * @example
 * ```ts ignore
 * for (const path of tablePaths.sort()) await comparePair(path, await read(path), pending, found);
 * ```
 */
export async function comparePair(
  path: string,
  read: { table: ColumnTable; csvText?: string },
  pending: Map<string, { table: ColumnTable; csvText?: string }>,
  found: (path: string, check: "table", problem: string) => void,
): Promise<void> {
  const stem = path.replace(/\.(csv|parquet)$/i, "");
  if (stem === path) return;
  const other = pending.get(stem);
  if (!other) {
    pending.clear(); // sorted: a pair is adjacent, so an unpaired file is never needed again
    pending.set(stem, read);
    return;
  }
  pending.delete(stem);
  const csv = read.csvText !== undefined ? read : other;
  const parquet = read.csvText !== undefined ? other : read;
  if (csv.csvText === undefined || parquet.csvText !== undefined) return;
  const difference = await csvDiffersFromParquet(csv.csvText, parquet.table);
  if (difference) {
    found(
      `${stem}.csv`,
      "table",
      `says something else than ${stem}.parquet, the same table: ${difference}`,
    );
  }
}
