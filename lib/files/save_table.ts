import type { ColumnTable } from "arquero";
import { checkOptions } from "../options/check_options.ts";
import { TidepoolError } from "../errors/errors.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { NotOwnFileError, readOwnFile, removeOwnFile, writeOwnFile } from "../fs/own_file.ts";
import { provenanceJson, provenancePath } from "../table/_provenance_json.ts";
import { encodeTable, type EncodeTableOptions, formatOfPath } from "./encode_table.ts";
import {
  isSidecarText,
  refuseReplacedMeanwhile,
  sidecarText,
  type Writer,
} from "./_output_record.ts";

export type { ListCells } from "./_list_cells.ts";

/** Options of {@linkcode saveTable}: how cells are written (see `encodeTable`). */
export type SaveTableOptions = EncodeTableOptions;

/**
 * Saves a table by the file's extension: `.csv` (UTF-8, lists and objects
 * as JSON text unless `lists` says otherwise, dates as ISO 8601, formula-like
 * text prefixed with `'`), `.tsv` or `.tab` (the same cells tab-separated,
 * tabs and line breaks in cells written `\t` and `\n`), `.ndjson` or `.jsonl` (one JSON object per row,
 * bigints as digit text, dates as ISO 8601), `.arrow` or `.feather` (Arrow IPC, types kept),
 * `.parquet` (ZSTD; dates as UTC timestamps, bigints as int64, arrays as
 * Parquet lists, objects as JSON text, every type read back by
 * `readTable`), or `.json` (each column's name and type, then its values;
 * bigints as digit text, dates as ISO 8601, all read back typed). A column
 * that mixes kinds of values (numbers and strings) is stored as strings in
 * Arrow, Parquet and JSON, never losing a value; an integer past 64 bits in
 * an Arrow file, or in a list in Parquet, is refused naming its column. The
 * file appears under its final name only when complete.
 *
 * A table a tidepool call returned keeps its provenance (see `provenance`):
 * in the schema metadata of `.parquet` and `.arrow` files, and in a sidecar
 * `<file>.provenance.json` beside `.csv`, `.ndjson` and `.json` files, which hold no
 * metadata. `readTable` restores it. Saving a table without provenance
 * removes a sidecar left by an earlier save to the same path. Only
 * tidepool's own sidecar is ever replaced or removed: a file of another
 * kind at `<file>.provenance.json` (a user's notes, another program's JSON,
 * a symbolic link) is refused before anything is written, and kept.
 * The sidecar also records the SHA-256 of the bytes saved and that
 * `saveTable` wrote them: a command's `--to` never replaces such a file,
 * since it is the user's.
 *
 * @param path Where to write; missing parent folders are created.
 * @param table The table.
 * @param options How list cells are flattened and whether formula-like cells are escaped.
 * @returns The number of bytes written.
 * @throws {TidepoolError} When `<file>.provenance.json` holds anything but
 *   tidepool's provenance, for a format that keeps its provenance there.
 *
 * @example Saving a CSV, list cells joined
 * ```ts
 * import * as aq from "arquero";
 * const dir = await Deno.makeTempDir();
 * const table = aq.table({ emotion: ["喜"], parts: [["目", "口"]], note: ["=1+1"] });
 * await saveTable(`${dir}/counts.csv`, table, { lists: "join" });
 * // emotion,parts,note / 喜,目; 口,'=1+1
 * ```
 */
export async function saveTable(
  path: string,
  table: ColumnTable,
  options: SaveTableOptions = {},
): Promise<number> {
  checkOptions("saveTable", options, {
    lists: "any",
    separator: "string",
    escapeFormulas: "boolean",
  });
  return await writeTableFile(path, table, options, "saveTable");
}

/**
 * Saves a table as {@linkcode saveTable} does, recording who wrote it. A
 * command's output (`command line`) gets its sidecar whatever the format
 * and whether or not the table has provenance, so that the next run knows
 * the file as the one it wrote.
 *
 * @param path Where to write.
 * @param table The table.
 * @param options How cells are written.
 * @param by Who writes it.
 * @param vouched For a command: the SHA-256 of bytes at `path` the caller
 *   knows as its own (a harvest's ledger), besides those its sidecar records.
 * @returns The number of bytes written.
 */
export async function writeTableFile(
  path: string,
  table: ColumnTable,
  options: SaveTableOptions,
  by: Writer,
  vouched?: string,
): Promise<number> {
  const format = formatOfPath(path);
  if (!format) {
    const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    throw new TidepoolError(`Cannot save a table as .${extension}: ${path}`, {
      hint: "Use a .csv, .tsv, .ndjson, .jsonl, .arrow, .feather, .parquet or .json file name",
    });
  }
  const from = provenanceJson(table);
  const bytes = await encodeTable(table, format, options);
  // Parquet and Arrow keep the provenance in their metadata; the text formats beside them.
  const textFormat = format !== "parquet" && format !== "arrow";
  const sidecar = by === "command line" || (textFormat && from !== undefined);
  const sidecarPath = provenancePath(path);
  try {
    // Looked at before the table is written, so a refusal leaves both files as they were.
    const ownSidecar = await isOwnSidecar(sidecarPath, textFormat || sidecar);
    await createParentFolder(path);
    // Asked again at the write: the command's check came before its requests.
    if (by === "command line") await refuseReplacedMeanwhile(path, vouched);
    await writeFileAtomic(path, bytes);
    if (sidecar) {
      await writeOwnFile(sidecarPath, await sidecarText(textFormat ? from : undefined, bytes, by));
    } else if (ownSidecar) await removeOwnFile(sidecarPath);
  } catch (error) {
    throw writeError(path, error);
  }
  return bytes.byteLength;
}

/**
 * Whether tidepool's provenance is at a sidecar's name (false when nothing
 * is). Anything else there is not tidepool's to replace or remove: refused
 * when `refuse` (the format keeps its provenance there), else left alone.
 */
async function isOwnSidecar(path: string, refuse: boolean): Promise<boolean> {
  let why: string;
  try {
    const text = await readOwnFile(path);
    if (text === undefined || isSidecarText(text)) return text !== undefined;
    why = "it holds something else";
  } catch (error) {
    if (!(error instanceof NotOwnFileError)) throw error;
    why = `it is ${error.what}`;
  }
  if (!refuse) return false;
  throw new TidepoolError(
    `Refused to replace ${path}: it is not the provenance tidepool writes beside a table (${why})`,
    {
      hint:
        `tidepool replaces and removes only files it wrote: move ${path} away, or save the table under another name`,
    },
  );
}

/** Creates the folders above `path` (the sidecar shares the table's folder). */
async function createParentFolder(path: string): Promise<void> {
  const folder = folderOf(path);
  if (folder !== ".") await Deno.mkdir(folder, { recursive: true });
}

/** A file-system failure as an error that names the path and says what to try. */
function writeError(path: string, error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof TidepoolError) return error;
  if (error instanceof Deno.errors.NotCapable) {
    return new TidepoolError(`Cannot save the table to ${path}: Deno may not write there`, {
      hint: `Run Deno with --allow-write (or --allow-write=${folderOf(path)})`,
      cause: error,
    });
  }
  const reason = error instanceof Deno.errors.PermissionDenied
    ? "the system denied the write"
    : error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists
    ? "a part of the path is a file, not a folder"
    : error instanceof Deno.errors.IsADirectory
    ? "the path is a folder"
    : error.message;
  return new TidepoolError(`Cannot save the table to ${path}: ${reason}`, {
    hint: `Give a path under a folder you can write to${relativeTo(path)}`,
    cause: error,
  });
}

function folderOf(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return slash > 0 ? path.slice(0, slash) : ".";
}

/** Where a relative path lands, when the current folder may be read. */
function relativeTo(path: string): string {
  if (/^([a-z]:)?[\\/]/i.test(path)) return "";
  try {
    return ` (a relative path is taken from ${Deno.cwd()})`;
  } catch {
    return "";
  }
}
