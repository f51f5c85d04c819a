/**
 * Whether `datapackage.json` tells a Data Package reader to read a table's
 * CSV file as tidepool wrote it: a reader (frictionless, the R and Julia
 * packages) applies the resource's dialect, encoding and Table Schema, so a
 * descriptor that declares another delimiter, a missing value `10`, a group
 * character or another type makes the same bytes read as another table
 * than the Parquet file holds. The terms must be the ones tidepool writes:
 * its dialect (or the defaults), UTF-8, only the empty cell missing, and
 * per column the type and boolean texts of the Parquet table's schema.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { frictionlessSchema } from "./frictionless_schema.ts";
import { csvHeader } from "./_csv_matches_parquet.ts";

/** The dialect a bundle's CSV is read with; `lineTerminator` may also be CRLF. */
const DIALECT: Record<string, unknown> = {
  header: true,
  delimiter: ",",
  lineTerminator: "\n",
  quoteChar: '"',
  doubleQuote: true,
};

/** The keys of a field that say nothing of how a cell is read. */
const FIELD_NOTES = new Set(["name", "title", "description", "example", "rdfType", "constraints"]);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * How a CSV resource's reading terms differ from the ones tidepool writes
 * for the table the Parquet file holds, or undefined when they agree.
 *
 * @param resource The CSV file's resource in `datapackage.json`.
 * @param header The CSV file's column names, as its first line gives them.
 * @param parquet The table the Parquet file holds.
 * @returns The first difference, in words.
 *
 * @example
 * ```ts ignore (internal; needs a bundle's reading terms and tables, as tests/bundle writes)
 * csvTermsDiffer({ dialect: { delimiter: ";" } }, ["k"], table); // 'its dialect sets delimiter to ";" ...'
 * ```
 */
export function csvTermsDiffer(
  resource: Record<string, unknown>,
  header: readonly string[],
  parquet: ColumnTable,
): string | undefined {
  const dialect = resource.dialect ?? {};
  if (!dialect || typeof dialect !== "object" || Array.isArray(dialect)) {
    return "its dialect is not an object";
  }
  for (const [key, value] of Object.entries(dialect)) {
    const allowed = key === "lineTerminator" ? value === "\n" || value === "\r\n" : key in DIALECT;
    if (!allowed || (key !== "lineTerminator" && !same(value, DIALECT[key]))) {
      return `its dialect sets ${key} to ${
        JSON.stringify(value)?.slice(0, 40)
      }, not as the file is written`;
    }
  }
  const encoding = resource.encoding;
  if (encoding !== undefined && String(encoding).toLowerCase().replace("_", "-") !== "utf-8") {
    return `its encoding is ${JSON.stringify(encoding)?.slice(0, 40)}, the file is UTF-8`;
  }
  const schema = resource.schema as Record<string, unknown> | undefined;
  if (!schema || typeof schema !== "object") return "it has no schema";
  if (schema.missingValues !== undefined && !same(schema.missingValues, [""])) {
    return `its missing values are ${
      JSON.stringify(schema.missingValues)?.slice(0, 60)
    }, only the empty cell is`;
  }
  const fields = Array.isArray(schema.fields) ? schema.fields : [];
  const expected = frictionlessSchema(parquet).fields;
  if (fields.length !== expected.length) {
    return `its schema has ${fields.length} fields, the table ${expected.length} columns`;
  }
  for (const [index, given] of fields.entries()) {
    const field = (given ?? {}) as Record<string, unknown>;
    const want = expected[index] as unknown as Record<string, unknown>;
    const column = JSON.stringify(header[index] ?? want.name);
    if (field.name !== header[index]) {
      return `its field ${index + 1} is named ${
        JSON.stringify(field.name)?.slice(0, 40)
      }, the file's column ${column}`;
    }
    for (const key of new Set([...Object.keys(field), ...Object.keys(want)])) {
      if (FIELD_NOTES.has(key)) continue;
      if (!same(field[key], want[key])) {
        return `its field ${column} sets ${key} to ${
          JSON.stringify(field[key])?.slice(0, 40) ?? "nothing"
        }, the Parquet table's column reads as ${JSON.stringify(want[key]) ?? "nothing"}`;
      }
    }
  }
  return undefined;
}

/**
 * Each CSV file of a table against its resource in `datapackage.json`: the
 * dialect, encoding and schema a Data Package reader applies must read it
 * as the Parquet file's table.
 *
 * @param reads A table's files read: name, table, and a CSV file's text.
 * @param described Each resource of `datapackage.json` by its file.
 * @param found Takes a problem row.
 *
 * @example
 * ```ts ignore (internal; needs a bundle's reading terms and tables, as tests/bundle writes)
 * checkReadingTerms(new Map([["a.csv", csvRead], ["a.parquet", parquetRead]]), resources, found);
 * ```
 */
export function checkReadingTerms(
  reads: ReadonlyMap<string, { table: ColumnTable; csvText?: string }>,
  described: ReadonlyMap<string, Record<string, unknown>>,
  found: (path: string, check: "datapackage", problem: string) => void,
): void {
  for (const [csvPath, csv] of reads) {
    const resource = described.get(csvPath);
    if (csv.csvText === undefined || !resource) continue;
    for (const [parquetPath, parquet] of reads) {
      if (parquet.csvText !== undefined) continue;
      const difference = csvTermsDiffer(resource, csvHeader(csv.csvText), parquet.table);
      if (difference) {
        found(
          csvPath,
          "datapackage",
          `datapackage.json has a reader read it otherwise than ${parquetPath}: ${difference}`,
        );
      }
    }
  }
}
