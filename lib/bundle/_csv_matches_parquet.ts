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

import type { ColumnTable } from "arquero";
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

/** A CSV text as its records of text cells, or where it is not plain RFC 4180 CSV. */
function csvRecords(text: string): { records: string[][] } | { problem: string } {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  const line = () => records.length + 1;
  while (at < text.length) {
    let cell = "";
    if (text[at] === '"') {
      at++;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote < 0) return { problem: `line ${line()} opens a quote it never closes` };
        cell += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        cell += '"';
        at++;
      }
      if (at < text.length && !/^(,|\n|\r\n)/.test(text.slice(at, at + 2))) {
        return {
          problem: `line ${line()} has text after a closing quote, which readers read apart`,
        };
      }
    } else {
      const end = text.slice(at).search(/[,\r\n]/);
      cell = end < 0 ? text.slice(at) : text.slice(at, at + end);
      at += cell.length;
      if (cell.includes('"')) {
        return {
          problem: `line ${line()} has a quote inside an unquoted cell, which readers read apart`,
        };
      }
      if (text[at] === "\r" && text[at + 1] !== "\n") {
        return {
          problem: `line ${line()} ends in a carriage return alone, which readers read apart`,
        };
      }
    }
    record.push(cell);
    if (text[at] === ",") {
      at++;
      if (at === text.length) record.push("");
      continue;
    }
    at += text[at] === "\r" ? 2 : 1;
    records.push(record);
    record = [];
  }
  if (record.length > 0) records.push(record);
  return { records };
}

/**
 * A CSV text's column names, as its first line gives them (empty when it
 * is not plain CSV: that is said by the comparison).
 *
 * @param text The CSV text.
 * @returns The names.
 *
 * @example
 * ```ts
 * console.log(csvHeader('k,"n"\nA,1\n')); // [ "k", "n" ]
 * ```
 */
export function csvHeader(text: string): string[] {
  const read = csvRecords(text);
  return "problem" in read ? [] : read.records[0] ?? [];
}

type Grid = { names: string[]; rows: string[][] };

/**
 * A CSV text as text cells: the header, then each row; or why readers may
 * read it apart (a malformed quote, a lone carriage return, a row with more
 * or fewer cells than the header, which one reader drops and another shows).
 */
function textGrid(text: string): Grid | { problem: string } {
  const read = csvRecords(text);
  if ("problem" in read) return read;
  const [names = [], ...rows] = read.records;
  const ragged = rows.findIndex((row) => row.length !== names.length);
  if (ragged >= 0) {
    return {
      problem: `row ${ragged + 1} has ${rows[ragged].length} cells, the header ${names.length}`,
    };
  }
  return { names, rows };
}

/** A cell quoted for a message, cut to 40 characters. */
function quoted(text: string): string {
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
  return shown;
}

/** The first difference of two text grids, in words, or undefined. */
function firstDifference(csv: Grid, parquet: Grid): string | undefined {
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
 * ```ts ignore (internal; needs a CSV and a Parquet file read from a bundle, as tests/bundle writes)
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
  if ("problem" in csv) return `it is not plain CSV: ${csv.problem}`;
  // Of the two ways the bundle may have written it, the closer one names the difference.
  const differences = [textGrid(escaped), textGrid(plain)].map((grid) =>
    "problem" in grid ? grid.problem : firstDifference(csv, grid)
  );
  if (differences.some((difference) => difference === undefined)) return undefined;
  return differences[0];
}

/**
 * The table files of a bundle grouped by table (`<stem>.csv` with
 * `<stem>.parquet`), so that a table's files are read one after the other
 * and compared, whatever other names sort between them.
 *
 * @param paths The bundle's file names.
 * @returns Each stem and its `.csv` and `.parquet` names, in sorted order.
 *
 * @example
 * ```ts
 * console.log(tableFiles(["a.csv", "a.b.csv", "a.parquet"]).get("a")); // [ "a.csv", "a.parquet" ]
 * ```
 */
export function tableFiles(paths: Iterable<string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const path of [...paths].sort()) {
    const stem = path.replace(/\.(csv|parquet)$/i, "");
    if (stem === path) continue;
    groups.set(stem, [...(groups.get(stem) ?? []), path]);
  }
  return groups;
}

/**
 * Compares each CSV file of a table with each Parquet file of it, once all
 * are read: a CSV that says something else than its Parquet is a problem
 * row naming the table and the first differing cell.
 *
 * @param reads The table's files read: name, table, and a CSV file's text.
 * @param found Takes the problem row.
 * @returns The files of the pairs that differ.
 *
 * @example
 * ```ts ignore (internal; needs a CSV and a Parquet file read from a bundle, as tests/bundle writes)
 * await comparePair(new Map([["a.csv", csvRead], ["a.parquet", parquetRead]]), found);
 * ```
 */
export async function comparePair(
  reads: ReadonlyMap<string, { table: ColumnTable; csvText?: string }>,
  found: (path: string, check: "table", problem: string) => void,
): Promise<Set<string>> {
  const differing = new Set<string>();
  for (const [csvPath, csv] of reads) {
    if (csv.csvText === undefined) continue;
    for (const [parquetPath, parquet] of reads) {
      if (parquet.csvText !== undefined) continue;
      const difference = await csvDiffersFromParquet(csv.csvText, parquet.table);
      if (difference) {
        differing.add(csvPath).add(parquetPath);
        found(
          csvPath,
          "table",
          `says something else than ${parquetPath}, the same table: ${difference}`,
        );
      }
    }
  }
  return differing;
}
