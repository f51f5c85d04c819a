/**
 * The keys of the rows a dataset already holds, read from its part files
 * when a keyed writer continues it; a part file the user damaged or
 * replaced is refused by name, and a link where a file should be too.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { NotOwnFileError, readOwnBytes } from "../fs/own_file.ts";
import type { SeenKeys } from "../paging/_seen_keys.ts";
import { keyOf } from "./_dataset_files.ts";

const parquetCode = () => import("./parquet.ts");

/** Adds the keys of one file's rows, reading only the key columns. */
export async function readKeys(path: string, columns: readonly string[], keys: SeenKeys) {
  const { tableFromParquet } = await parquetCode();
  const bytes = await readOwnBytes(path).catch(refuseLink(path));
  if (bytes === undefined) {
    throw new TidepoolError(
      `Cannot continue the dataset: its checkpoint lists ${path}, which is gone`,
      {
        hint: "Write the dataset to a new folder, or delete this one to start over",
      },
    );
  }
  // A part file the user damaged or replaced is refused by name, never read as ours.
  const damaged = (why: string, details?: string) =>
    new TidepoolError(`Cannot continue the dataset: its part file ${path} ${why}`, {
      details,
      detailsLabel: "The Parquet reader said",
      hint:
        "Nothing was changed. Put the file back as tidepool wrote it, or write the dataset to a new folder (or delete this one to start over)",
    });
  let table: ColumnTable;
  try {
    table = await tableFromParquet(bytes, { columns: [...columns] });
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    throw damaged("is not a readable Parquet file", said.slice(0, 200));
  }
  const missing = columns.filter((name) => !table.columnNames().includes(name));
  if (missing.length > 0) {
    throw damaged(
      `lacks the column ${
        missing.join(", ")
      } the dataset is keyed by: it is not a file this dataset wrote`,
    );
  }
  const arrays = columns.map((name) => table.array(name) as ArrayLike<unknown>);
  for (let row = 0; row < table.numRows(); row++) {
    keys.admit(keyOf(arrays.map((values) => values[row])), 0);
  }
}

/** A refusal of a link (or another kind of file) at a dataset's own name, as a tidepool error. */
export function refuseLink(dir: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof NotOwnFileError)) throw error;
    throw new TidepoolError(
      `Cannot write a dataset into ${dir}: ${error.path} is ${error.what}, not a folder or file tidepool wrote`,
      {
        hint:
          "tidepool never writes a dataset through a link: remove it, or give the dataset a folder of its own",
      },
    );
  };
}
