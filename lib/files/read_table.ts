import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { checkOptions } from "../options/check_options.ts";
import { NotOwnFileError, readOwnFile } from "../fs/own_file.ts";
import { isProvenanceText, provenancePath, restoreProvenance } from "../table/_provenance_json.ts";
import { recordIn } from "./_output_record.ts";

/** Options of {@linkcode readTable}. */
export interface ReadTableOptions {
  /** Guess CSV columns' types from their text (default true); false keeps every cell as text. */
  inferTypes?: boolean;
}

/**
 * Reads a table saved by `saveTable`, by the file's extension: `.parquet`
 * and `.arrow`/`.feather` come back with their column types (dates, bigints,
 * arrays, objects), `.csv` with types guessed from the text, `.json` with
 * the types it names (a plain array of rows as Arquero reads it). The provenance `saveTable` kept (in the file's
 * metadata, or in the `<file>.provenance.json` beside it) is attached again.
 *
 * @param path The file to read.
 * @param options `inferTypes: false` reads every CSV cell as text, for a
 *   caller that knows the columns' types (a guess from the first 1,000 rows
 *   can take a list or a text for another type); other formats keep theirs.
 * @returns The table.
 * @throws {TidepoolError} When the sidecar is not provenance, is a symbolic
 *   link or not a regular file (never followed or opened), or counts other
 *   rows than the file holds (the file was edited since it was saved).
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
export async function readTable(
  path: string,
  options: ReadTableOptions = {},
): Promise<ColumnTable> {
  checkOptions("readTable", options, { inferTypes: "boolean" });
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  // Each format's decoder loads with its first file, so that importing
  // tidepool stays quick (bench/import_bench.ts).
  if (extension === "parquet") {
    const { tableFromParquet } = await import("../dataset/parquet.ts");
    return tableFromParquet(await Deno.readFile(path));
  }
  if (extension === "arrow" || extension === "feather") {
    const { decodeArrow } = await import("./_arrow.ts");
    return decodeArrow(await Deno.readFile(path), path);
  }
  if (extension === "csv") {
    const { decodeCsv } = await import("./_csv.ts");
    return withSidecar(path, decodeCsv(await Deno.readTextFile(path), options.inferTypes));
  }
  if (extension === "tsv" || extension === "tab") {
    const { decodeTsv } = await import("./_tsv.ts");
    return withSidecar(path, decodeTsv(await Deno.readTextFile(path)));
  }
  if (extension === "ndjson" || extension === "jsonl") {
    const { decodeNdjson } = await import("./_ndjson.ts");
    return withSidecar(path, decodeNdjson(await Deno.readTextFile(path), path));
  }
  if (extension === "json") {
    const { decodeJson } = await import("./_json.ts");
    return withSidecar(path, decodeJson(await Deno.readTextFile(path), path));
  }
  throw new TidepoolError(`Cannot read a table from .${extension}: ${path}`, {
    hint: "Use a .parquet, .arrow, .feather, .csv, .tsv, .ndjson, .jsonl or .json file",
  });
}

/** Attaches the provenance in `<path>.provenance.json`, when there is one. */
async function withSidecar(path: string, table: ColumnTable): Promise<ColumnTable> {
  const sidecar = provenancePath(path);
  let text: string | undefined;
  try {
    // A link at the sidecar's name is not followed: its target's text is no provenance.
    text = await readOwnFile(sidecar);
  } catch (error) {
    if (!(error instanceof NotOwnFileError)) throw error;
    throw new TidepoolError(
      `Cannot read the provenance of a saved table: ${sidecar}: it is ${error.what}, not a file saveTable wrote`,
      { hint: `Move ${sidecar} away to read the table without provenance` },
    );
  }
  // A command's output of a table without provenance has only the record of its write.
  if (text === undefined || (!isProvenanceText(text) && recordIn(text))) return table;
  // A CSV or JSON file is easily edited apart from its sidecar.
  return restoreProvenance(table, text, sidecar, { sameRows: true });
}
