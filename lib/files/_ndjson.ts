/**
 * NDJSON table files (also `.jsonl`): one JSON object per row, keys in
 * column order, the format `jq`, DuckDB's `read_json` and most log tools
 * read a line at a time. Values JSON cannot hold are written as text the
 * way tidepool's JSON files write them (bigints as digits, dates as
 * ISO 8601); NaN and the infinities, which have no JSON number, are null.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { tableFromColumns } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";

/** A cell as NDJSON holds it. */
function encodeCell(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}`;
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  return value;
}

/** The NDJSON text of each row, each ending with a newline. */
export function* ndjsonLines(table: ColumnTable): Generator<string> {
  const names = table.columnNames();
  const columns = names.map((name) => table.array(name) as ArrayLike<unknown>);
  for (let row = 0; row < table.numRows(); row++) {
    const record: Record<string, unknown> = {};
    names.forEach((name, i) => record[name] = columns[i][row] ?? null);
    yield JSON.stringify(record, encodeCell) + "\n";
  }
}

/** The bytes of an NDJSON file of the table. */
export function encodeNdjson(table: ColumnTable): Uint8Array {
  let text = "";
  for (const line of ndjsonLines(table)) text += line;
  return new TextEncoder().encode(text);
}

/** The type a column of parsed JSON values is read as. */
function jsonType(values: readonly unknown[]): ColumnType {
  const kinds = new Set(
    values.filter((value) => value !== null && value !== undefined).map((value) =>
      Array.isArray(value) ? "array" : typeof value
    ),
  );
  if (kinds.size !== 1) return kinds.size === 0 ? "string" : "object";
  const [kind] = kinds;
  return kind === "array"
    ? "array"
    : kind === "boolean" || kind === "number" || kind === "string"
    ? kind
    : "object";
}

/**
 * The table in an NDJSON file's text: columns in the order keys first
 * appear, a row without a key holding null there. Dates and bigints come
 * back as the text they were written as.
 */
export function decodeNdjson(text: string, path: string): ColumnTable {
  const names: string[] = [];
  const known = new Set<string>();
  const records: Record<string, unknown>[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw new TidepoolError(`Cannot read line ${index + 1} of ${path}: it is not JSON`, {
        details: error instanceof Error ? error.message : String(error),
        detailsLabel: "The JSON parser said",
        hint: "Each line of an NDJSON file holds one JSON object",
      });
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new TidepoolError(`Cannot read line ${index + 1} of ${path}: it is not a JSON object`, {
        hint: "Each line of an NDJSON file holds one JSON object, the row's cells by column name",
      });
    }
    for (const name of Object.keys(record)) {
      if (known.has(name)) continue;
      known.add(name);
      names.push(name);
    }
    records.push(record as Record<string, unknown>);
  });
  return tableFromColumns(names.map((name) => {
    const values = records.map((record) => record[name] ?? null);
    return { name, type: jsonType(values), values };
  }));
}
