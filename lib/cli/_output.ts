/**
 * Where a command's table goes (`--to`, `--format`): standard output as CSV
 * or NDJSON, a table file by its extension, or a partitioned Parquet folder;
 * and the writing of it.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import {
  encodeTable,
  type EncodeTableOptions,
  formatOfPath,
  type TableFormat,
} from "../files/encode_table.ts";
import { writeTableFile } from "../files/save_table.ts";
import { UsageError } from "./exit_codes.ts";

/** Where a table goes. */
export type OutputTarget =
  & (
    | { kind: "stdout"; format: "csv" | "tsv" | "ndjson" }
    | { kind: "file"; path: string; format: TableFormat }
    | { kind: "folder"; path: string }
  )
  & { cells?: EncodeTableOptions };

/** The names `--format` takes, and what each means. */
const FORMATS: Readonly<Record<string, TableFormat | "dataset">> = {
  csv: "csv",
  tsv: "tsv",
  ndjson: "ndjson",
  jsonl: "ndjson",
  json: "json",
  arrow: "arrow",
  feather: "arrow",
  parquet: "parquet",
  dataset: "dataset",
};

/** Whether a path names a folder that exists. */
async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * The target `--to` and `--format` name. `-` (the default) is standard
 * output, CSV unless `--format ndjson`; a path takes its format from its
 * extension unless `--format` names one (they must agree); a path ending in
 * `/`, an existing folder or `--format dataset` is a partitioned Parquet
 * folder, where the command writes one.
 *
 * @param to The `--to` value.
 * @param format The `--format` value.
 * @param folders Whether the command writes partitioned Parquet folders.
 * @returns The target.
 * @throws {UsageError} For an unknown format, a disagreement, or a format standard output cannot take.
 */
export async function outputTarget(
  to: string | undefined,
  format: string | undefined,
  folders: boolean,
): Promise<OutputTarget> {
  const named = format === undefined ? undefined : FORMATS[format.toLowerCase()];
  if (format !== undefined && named === undefined) {
    throw new UsageError(`Unknown --format ${format}`, {
      hint: `Use one of ${Object.keys(FORMATS).join(", ")}`,
    });
  }
  if (to === undefined || to === "-") {
    if (named === undefined || named === "csv" || named === "tsv" || named === "ndjson") {
      return { kind: "stdout", format: named ?? "csv" };
    }
    throw new UsageError(`Cannot write --format ${format} to standard output`, {
      hint: "Standard output takes csv, tsv or ndjson; give --to a file name for the other formats",
    });
  }
  const byExtension = formatOfPath(to);
  if (named === "dataset" || to.endsWith("/") || (!named && !byExtension && await isFolder(to))) {
    if (!folders) {
      throw new UsageError(`Cannot write this table to the folder ${to}`, {
        hint: "Give --to a file name ending in .csv, .tsv, .ndjson, .parquet, .json or .arrow",
      });
    }
    return { kind: "folder", path: to.replace(/\/+$/, "") || "/" };
  }
  if (named && byExtension && named !== byExtension) {
    throw new UsageError(`--format ${format} disagrees with the extension of ${to}`, {
      hint: "Leave out --format, or give the file the extension of the format",
    });
  }
  const chosen = named ?? byExtension;
  if (!chosen) {
    throw new UsageError(`Cannot tell the format of ${to}`, {
      hint:
        `Give a file name ending in .csv, .tsv, .ndjson, .parquet, .json or .arrow, or --format${
          folders ? " (a name ending in / is a partitioned Parquet folder)" : ""
        }`,
    });
  }
  return { kind: "file", path: to, format: chosen as TableFormat };
}

/**
 * Writes a table to a file or standard output (folders are written by the
 * command that fills them).
 *
 * @param target Where.
 * @param table The table.
 * @param stdout Writes bytes to standard output.
 * @returns How the summary names the target.
 */
export async function writeTable(
  target: OutputTarget,
  table: ColumnTable,
  stdout: (bytes: Uint8Array) => Promise<void>,
): Promise<string> {
  if (target.kind === "stdout") {
    await stdout(await encodeTable(table, target.format, target.cells));
    return "standard output";
  }
  if (target.kind === "folder") {
    throw new UsageError(`Cannot write this table to the folder ${target.path}`, {
      hint: "Give --to a file name ending in .csv, .tsv, .ndjson, .parquet, .json or .arrow",
    });
  }
  await writeTableFile(target.path, table, target.cells ?? {}, "command line");
  return target.path;
}
