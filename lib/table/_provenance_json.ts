/**
 * Provenance as JSON text, for files: `saveTable` writes it beside a table
 * (a sidecar file, or Arrow and Parquet schema metadata) and `readTable`
 * attaches it again.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { attachProvenance, type Provenance, provenance } from "./provenance.ts";

/** The Arrow and Parquet schema metadata key that holds a table's provenance. */
export const PROVENANCE_KEY = "tidepool:provenance";

/** The sidecar file of a saved table: `<file>.provenance.json`. */
export function provenancePath(path: string): string {
  return `${path}.provenance.json`;
}

/** A table's provenance as JSON text; undefined when it has none. */
export function provenanceJson(table: ColumnTable): string | undefined {
  const from = provenance(table);
  return from ? JSON.stringify(from, null, 2) : undefined;
}

const STRING_FIELDS = ["service", "operation", "tidepoolVersion", "startedAt", "endedAt"] as const;

/**
 * Whether text is provenance as tidepool writes it beside a table: a JSON
 * object with the text fields every provenance has. Anything else at a
 * sidecar's name (a user's notes, another program's JSON) is not tidepool's.
 *
 * @param text The file's text.
 * @returns True for tidepool's provenance.
 */
export function isProvenanceText(text: string): boolean {
  try {
    const record = JSON.parse(text);
    return isObject(record) && STRING_FIELDS.every((name) => typeof record[name] === "string");
  } catch {
    return false;
  }
}

/**
 * Attaches provenance read from a file to a table; `rows` becomes the
 * table's own count.
 *
 * @param table The table read.
 * @param text The JSON text.
 * @param source Where the text was read, for the error.
 * @param options `sameRows`: refuse provenance that counts other rows than
 *   the table (a sidecar beside a data file changed since it was saved).
 * @returns The same table.
 */
export function restoreProvenance(
  table: ColumnTable,
  text: string,
  source: string,
  options: { sameRows?: boolean } = {},
): ColumnTable {
  let record: Partial<Record<keyof Provenance, unknown>>;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw invalid(source, error instanceof Error ? error.message : String(error));
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    throw invalid(source, "not a JSON object");
  }
  const missing = STRING_FIELDS.filter((name) => typeof record[name] !== "string");
  if (missing.length > 0) throw invalid(source, `no text for ${missing.join(", ")}`);
  // The provenance speaks of the rows the call returned: other rows are other data.
  if (options.sameRows && typeof record.rows === "number" && record.rows !== table.numRows()) {
    throw invalid(
      source,
      `it describes ${record.rows} rows, the table read has ${table.numRows()}`,
      "The table was changed after saveTable wrote it, so this provenance is not its own: " +
        "restore the saved file, or save the changed table with saveTable",
    );
  }
  const cacheKeys = Array.isArray(record.cacheKeys) ? record.cacheKeys.map(String) : [];
  return attachProvenance(table, {
    service: record.service as string,
    operation: record.operation as string,
    params: isObject(record.params) ? record.params : {},
    tidepoolVersion: record.tidepoolVersion as string,
    startedAt: record.startedAt as string,
    endedAt: record.endedAt as string,
    asOf: isObject(record.asOf) ? record.asOf as Record<string, string | number> : {},
    cacheKeys,
    ...(typeof record.page === "number" ? { page: record.page } : {}),
    ...(record.readWithKey === true ? { readWithKey: true } : {}),
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function invalid(
  source: string,
  why: string,
  hint = "The file was changed by hand; restore it, or delete it to read the table without",
): TidepoolError {
  return new TidepoolError(`Cannot read the provenance of a saved table: ${source}: ${why}`, {
    hint,
  });
}
