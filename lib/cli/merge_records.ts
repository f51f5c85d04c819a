/**
 * The records of an incremental harvest merged into the file of the earlier
 * ones: a changed record replaces its earlier row in place (a deleted one
 * becomes its `deleted` row), a new one is added at the end, so the file
 * always holds every record once, as the repository last described it.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { columnTypes, tableFromColumns } from "../table/build_table.ts";
import { concatTables, convertTo } from "../table/concat_tables.ts";
import type { ColumnType } from "../table/convert.ts";
import { deriveProvenance } from "../table/derived_provenance.ts";
import { readTable } from "../files/read_table.ts";
import { harvestColumnType } from "../archive/oai/_schemas.ts";

/** A list cell read back from a text format (CSV writes lists as JSON text). */
function listCell(value: unknown): unknown {
  if (typeof value !== "string") return convertTo(value, "array");
  if (value.startsWith("[")) {
    try {
      const parsed = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: a plain value
    }
  }
  return [value];
}

/** The earlier table with the given column types, where a text format lost them. */
function conform(
  earlier: ColumnTable,
  typeOf: (name: string) => ColumnType | undefined,
): ColumnTable {
  const earlierTypes = columnTypes(earlier);
  return tableFromColumns(
    earlier.columnNames().map((name) => {
      const values = Array.from(earlier.array(name) as ArrayLike<unknown>);
      const type = typeOf(name);
      if (type === undefined || type === earlierTypes[name]) {
        return { name, type: earlierTypes[name], values };
      }
      const cell = type === "array" ? listCell : (value: unknown) => convertTo(value, type);
      // An empty CSV cell is null: CSV writes an empty list as `[]`.
      const empty = (value: unknown) => value == null || (value === "" && type !== "string");
      return { name, type, values: values.map((value) => empty(value) ? null : cell(value)) };
    }),
  );
}

/**
 * The table an earlier harvest wrote, read back with the types the harvest
 * gives its columns (`harvestColumnType`), never types guessed from the
 * text: a CSV reader guesses from the first 1,000 rows, so a list first
 * filled after them, or a text that looks like a number, a boolean or a
 * date, would come back as another value and be written back changed.
 *
 * @param path The file the earlier runs wrote.
 * @returns Its table, each cell as the harvest gave it.
 */
export async function readHarvested(path: string): Promise<ColumnTable> {
  return conform(await readTable(path, { inferTypes: false }), harvestColumnType);
}

/**
 * The earlier table with its identifiers exactly as they were harvested: a
 * file read back may give another value (CSV reads `00123` as 123, a date
 * as a date, a formula-like `@x` with its escape), and a changed record
 * would then be added a second time.
 */
function withIdentifiers(
  earlier: ColumnTable,
  identifiers: readonly string[],
  file: string,
): ColumnTable {
  if (identifiers.length !== earlier.numRows()) {
    throw new TidepoolError(
      `Cannot merge the harvest into ${file}: it holds ${earlier.numRows()} rows, the harvest's ledger ${identifiers.length}`,
      { hint: `Move ${file} away to harvest every record into a new file` },
    );
  }
  return earlier.assign({ identifier: [...identifiers] });
}

/**
 * Merges the records of an incremental harvest into the earlier ones, by
 * `identifier`, compared exactly as harvested.
 *
 * @param earlier The table the earlier runs wrote, read back.
 * @param changes The records this run harvested.
 * @param file The earlier table's file, for the error.
 * @param identifiers The earlier rows' identifiers as harvested (the
 *   harvest's ledger), which replace those read back from the file.
 * @returns Every record once; its provenance names this run's harvest and the earlier row count.
 * @throws {TidepoolError} When the earlier table has no `identifier` column, or other rows than `identifiers`.
 */
export function mergeRecords(
  earlier: ColumnTable,
  changes: ColumnTable,
  file: string,
  identifiers?: readonly string[],
): ColumnTable {
  if (!earlier.columnNames().includes("identifier")) {
    throw new TidepoolError(`Cannot merge the harvest into ${file}: it has no identifier column`, {
      hint:
        "Give --to a file this harvest wrote, or delete the harvest's state file to start over into a new file",
    });
  }
  if (identifiers) earlier = withIdentifiers(earlier, identifiers, file);
  const types = columnTypes(changes);
  const joined = concatTables([conform(earlier, (name) => types[name]), changes]);
  const ids = joined.array("identifier") as ArrayLike<unknown>;
  const changedAt = new Map<unknown, number>();
  for (let row = earlier.numRows(); row < joined.numRows(); row++) changedAt.set(ids[row], row);
  const order: number[] = [];
  for (let row = 0; row < earlier.numRows(); row++) {
    const change = changedAt.get(ids[row]);
    order.push(change ?? row);
    changedAt.delete(ids[row]);
  }
  order.push(...changedAt.values());
  const joinedTypes = columnTypes(joined);
  const merged = tableFromColumns(
    joined.columnNames().map((name) => {
      const values = joined.array(name) as ArrayLike<unknown>;
      return { name, type: joinedTypes[name], values: order.map((row) => values[row]) };
    }),
  );
  return deriveProvenance(merged, {
    operation: "tidepool harvest",
    inputs: { changes },
    params: {
      earlierRows: earlier.numRows(),
    },
  });
}
