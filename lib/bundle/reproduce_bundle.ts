/**
 * Reproduces a paper's bundle: re-runs the notebook or script that made it
 * from its recording, confined to a scratch copy of its project (no
 * network, subprocess, FFI or environment; nothing of the author's or the
 * reviewer's written), and compares the Parquet digest of every table it
 * writes with the digest the bundle records. The files themselves (CSV,
 * SVG, metadata) are `verify`'s to check.
 *
 * @module
 */

import { inlineText } from "../errors/terminal_text.ts";
import type { ColumnTable } from "arquero";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { TidepoolError } from "../errors/errors.ts";
import { checkOptions } from "../options/check_options.ts";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { tableDigest } from "../table/table_digest.ts";
import { TABLE_DIGEST_NAME } from "./_ro_crate.ts";
import { bundleName, fileState, readSmallText } from "./_bundle_file.ts";
import {
  copyRegularFiles,
  DEFAULT_MAX_COPY_BYTES,
  DEFAULT_MAX_COPY_FILES,
  isInside,
  projectRoot,
} from "./_project_copy.ts";
import { checkModuleGraph, runConfined } from "./_confined_run.ts";
import { cacheModuleGraph, denoCaches, denoSetup } from "./_confined_deno.ts";
import { notebookModule } from "./_notebook_module.ts";
import { readBoundedTable, tableBounds } from "./_table_bounds.ts";
import type { ParquetBounds } from "../dataset/parquet.ts";

/** One table of the bundle, as recorded and as reproduced. */
export interface ReproducedTable {
  /** The table's Parquet file, such as `orders.parquet`. */
  file: string;
  /**
   * `same`, `changed`, `missing` (not reproduced), `new` (not in the bundle),
   * or `not recorded`: the table came from requests a recording never keeps
   * (signed ones, such as a compute job's results), so a replay cannot give
   * it back. A `not recorded` table fails the reproduction unless
   * `allowNotRecorded` is given.
   */
  status: "same" | "changed" | "missing" | "new" | "not recorded";
  /** The digest the bundle records, or null. */
  recorded: string | null;
  /** The digest of the reproduced table (of its Parquet file, computed here), or null. */
  reproduced: string | null;
}

/** What {@linkcode reproduceBundle} found. */
export interface Reproduction {
  /**
   * Whether every table was re-made with the digest the bundle records (a
   * `not recorded` one counts only with `allowNotRecorded`, and at least one
   * table must be the same).
   */
  readonly ok: boolean;
  /** One row per table file: `file, status, recorded, reproduced`. */
  readonly tables: ColumnTable;
  /** The verdict in words, saying what was compared. */
  readonly summary: string;
}

/** Where the run reads its recording, and what else it needs. */
export interface ReproduceOptions {
  /** The recording the notebook or script was run with (`TIDEPOOL_CACHE_DIR`); default `.cache/tidepool` in the project. */
  recording?: string;
  /** Arguments for a script. */
  args?: readonly string[];
  /** The longest the run may take; default 30 minutes. */
  timeoutMs?: number;
  /**
   * Accept tables built from requests no recording keeps (signed ones) as
   * `not recorded` instead of failing; default false. Which tables those are
   * is the bundle's RO-Crate's word (the author's): a table is taken as not
   * recorded only when its one CreateAction names its traced call and the
   * crate holds no cache keys for it, so a table the crate ties to recorded
   * requests is always compared. Those tables are neither re-made nor compared.
   */
  allowNotRecorded?: boolean;
  /** The most bytes the scratch copy (project and recording) may take; default 512 MB. */
  maxCopyBytes?: number;
  /** The most files and folders the scratch copy (project and recording) may hold; default 100,000. */
  maxCopyFiles?: number;
  /**
   * The most cells (rows × columns) a table the re-run wrote may have to be
   * read back (its Parquet footer is read first); default 10,000,000.
   */
  maxTableCells?: number;
}

const reproducedSchema: TableSchema<ReproducedTable> = defineSchema(
  [
    { name: "file", type: "string", description: "The table's file in the bundle" },
    { name: "status", type: "string", description: "same, changed, missing, new or not recorded" },
    { name: "recorded", type: "string", description: "The digest the bundle records" },
    { name: "reproduced", type: "string", description: "The digest of the reproduced table" },
  ] as const,
);

/**
 * Re-runs a notebook (`.ipynb`) or a script (`.ts`, `.js`) from its
 * recording in a scratch copy of its project, confined, and compares the
 * Parquet digest of every table it writes with the one the bundle records.
 *
 * The project is untrusted, so the re-run is a sandbox: a child Deno that
 * may read only the scratch copy and Deno's npm cache, write only the
 * scratch copy, and has no network, no subprocess, no FFI, no system
 * information and an environment holding only `TIDEPOOL_CACHE_MODE=replay`,
 * `TIDEPOOL_CACHE_DIR`, `DENO_DIR` and a `TMPDIR` inside the copy. A
 * notebook's code cells run the same way, as one module (the Jupyter kernel
 * takes no permission flags). The copy is made of regular files only, at
 * most `maxCopyBytes` and `maxCopyFiles` files and folders, from the project root: the nearest folder above the
 * source and the bundle with a `deno.json` or `.git` (or the workspace it
 * belongs to), never a home folder or `/`. The digests compared are
 * computed here from the Parquet files the re-run wrote, never taken from
 * what it says.
 *
 * @param bundleDir The bundle the paper cites.
 * @param source The notebook or script that wrote it.
 * @param options The recording, script arguments, time limit, size bound,
 *   and whether tables from requests no recording keeps may go unreproduced.
 * @returns Per table, whether its digest is the same; `ok` only when every
 *   table was re-made with the digest the bundle records.
 * @throws {TidepoolError} When the project cannot be copied or confined,
 *   the run fails, or it writes no bundle where the paper's is.
 *
 * @example Reproducing a paper's tables
 * ```ts ignore (runs a notebook in a Jupyter kernel)
 * const result = await reproduceBundle("out/bundle", "analysis.ipynb", {
 *   recording: ".cache/tidepool",
 * });
 * console.log(result.summary);
 * ```
 */
export async function reproduceBundle(
  bundleDir: string,
  source: string,
  options: ReproduceOptions = {},
): Promise<Reproduction> {
  checkOptions("reproduceBundle", options, {
    recording: "string",
    args: "strings",
    timeoutMs: "number",
    allowNotRecorded: "boolean",
    maxCopyBytes: "number",
    maxCopyFiles: "number",
    maxTableCells: "number",
  });
  const bundle = resolve(bundleDir);
  const sourcePath = resolve(source);
  if (!/\.(ipynb|[cm]?[jt]sx?)$/.test(sourcePath)) {
    throw new TidepoolError(`Cannot reproduce with ${source}: it is no notebook or script`, {
      hint: "Give the .ipynb notebook or the .ts or .js script that wrote the bundle",
    });
  }
  if (!(await Deno.stat(sourcePath).then((info) => info.isFile, () => false))) {
    throw new TidepoolError(`Cannot reproduce with ${source}: there is no such file`, {
      hint: "Give the notebook or script that wrote the bundle, as a path from here",
    });
  }
  const root = await projectRoot(sourcePath, bundle, Deno.env.get("HOME"));
  const recording = resolve(options.recording ?? join(root, ".cache/tidepool"));
  if (!(await Deno.stat(recording).then((info) => info.isDirectory, () => false))) {
    throw new TidepoolError(`Cannot reproduce ${bundleDir}: no recording at ${recording}`, {
      hint:
        "Give the folder the notebook or script recorded into (its TIDEPOOL_CACHE_DIR) as the recording",
    });
  }
  // The default recording is the author's: a link out of the project (to a home folder) is refused.
  if (
    options.recording === undefined &&
    !isInside(await Deno.realPath(recording), await Deno.realPath(root))
  ) {
    throw new TidepoolError(
      `Cannot reproduce ${bundleDir}: its recording ${recording} is a symbolic link out of the project`,
      {
        hint:
          "The re-run may read only a copy of its project: give the recording folder itself with --recording",
      },
    );
  }
  // The bundle's crate is read once, and before the run: a folder that is no bundle fails at once.
  const recorded = await crateGraph(bundle, bundleDir);
  const before = recordedDigests(recorded);
  if (before.size === 0) {
    throw new TidepoolError(`Cannot reproduce ${bundleDir}: its RO-Crate records no table digest`, {
      hint:
        "reproduce compares the tables a bundle records; for its other files (charts), run verify",
    });
  }
  const unrecorded = unrecordedFiles(recorded);
  const caches = await denoCaches();
  const scratch = await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-reproduce-" }));
  try {
    // The author's files stay as they are: the run works on a copy, without the bundle.
    const limits = {
      skip: new Set([bundle, recording]),
      maxBytes: options.maxCopyBytes ?? DEFAULT_MAX_COPY_BYTES,
      copied: 0,
      maxEntries: options.maxCopyFiles ?? DEFAULT_MAX_COPY_FILES,
      entries: 0,
    };
    const project = join(scratch, "project");
    await copyRegularFiles(root, project, root, limits);
    const replayFrom = join(scratch, "recording");
    await copyRegularFiles(recording, replayFrom, recording, limits);
    const copiedSource = join(project, relative(root, sourcePath));
    const module = copiedSource.endsWith(".ipynb")
      ? await notebookModule(copiedSource)
      : copiedSource;
    const confinement = {
      folders: [project, replayFrom],
      tmp: join(scratch, "tmp"),
      deno: await denoSetup(module, project, join(scratch, "deno"), caches),
      tidepoolFiles: tidepoolFiles(),
      env: { TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: replayFrom },
    };
    // Every package is fetched now, by the reviewer's Deno: the run itself downloads nothing.
    await cacheModuleGraph(module, confinement.deno);
    await checkModuleGraph(module, confinement);
    await runConfined(
      module,
      options.args ?? [],
      confinement,
      options.timeoutMs ?? 30 * 60_000,
    );
    const reproduced = join(project, relative(root, bundle));
    const after = await reproducedDigests(
      reproduced,
      before.keys(),
      basename(source),
      tableBounds(options.maxTableCells),
    );
    return compare(bundleDir, before, after, unrecorded, options.allowNotRecorded === true);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/**
 * tidepool's own files, when it runs from a checkout: a project may import
 * them from there (a workspace member, or by path). Only the published
 * files: `mod.ts`, the entry points, `deno.json` (its version) and `lib/`,
 * never the checkout's own recordings or outputs.
 */
function tidepoolFiles(): string[] {
  const here = new URL("../../", import.meta.url);
  if (here.protocol !== "file:") return [];
  const root = fromFileUrl(here);
  return ["mod.ts", "verify.ts", "reproduce.ts", "deno.json", "lib"].map((name) =>
    join(root, name)
  );
}

type CrateGraph = Record<string, unknown>[];

/** The entities of a bundle's RO-Crate, read as untrusted (a regular file, bounded, JSON). */
async function crateGraph(dir: string, given: string): Promise<CrateGraph> {
  const read = await readSmallText(dir, "ro-crate-metadata.json", 64 * 1024 * 1024);
  try {
    if ("missing" in read) throw new Error("it has no ro-crate-metadata.json");
    if ("problem" in read) throw new Error(`its ro-crate-metadata.json is ${read.problem}`);
    const crate = JSON.parse(read.text);
    if (!Array.isArray(crate?.["@graph"])) throw new Error("its RO-Crate has no @graph");
    return crate["@graph"].filter((entity: unknown) => entity && typeof entity === "object");
  } catch (error) {
    throw new TidepoolError(`Cannot reproduce ${given}: ${(error as Error).message}`, {
      hint: "Give the bundle folder saveBundle wrote (run verify on it to see what is wrong)",
    });
  }
}

/** The table digests a bundle's RO-Crate records for its Parquet files, by file name. */
function recordedDigests(graph: CrateGraph): Map<string, string> {
  const byId = new Map(graph.map((entity) => [entity["@id"], entity]));
  const digests = new Map<string, string>();
  for (const entity of graph) {
    const digest = byId.get((entity.identifier as { "@id"?: string } | undefined)?.["@id"]);
    if (digest?.name !== TABLE_DIGEST_NAME) continue;
    const name = bundleName(entity["@id"]);
    // The Parquet file keeps the types; a name that is no plain file of the bundle is not compared.
    if ("refused" in name || !name.name.endsWith(".parquet")) continue;
    digests.set(name.name, String(digest.value));
  }
  return digests;
}

/**
 * The table files the crate says came from a call none of whose requests a
 * recording keeps (a compute job's results are signed): a claim of the
 * author's, which `allowNotRecorded` accepts. It is taken only when the
 * crate makes it plainly: exactly one entity names the file as its result,
 * a CreateAction whose object is that table's traced call (`#query-<table>`,
 * present in the crate), with no cache keys for the table anywhere in the
 * crate. A file another action also names, or whose cache keys the crate
 * holds, is compared like any other.
 */
function unrecordedFiles(graph: CrateGraph): Set<string> {
  const ids = new Set(graph.map((entity) => entity["@id"]));
  const namedBy = new Map<string, Record<string, unknown>[]>();
  for (const entity of graph) {
    for (const result of refIds(entity.result)) {
      const name = bundleName(result);
      if ("refused" in name) continue;
      namedBy.set(name.name, [...(namedBy.get(name.name) ?? []), entity]);
    }
  }
  const files = new Set<string>();
  for (const [file, [action, ...others]] of namedBy) {
    if (others.length > 0 || action["@type"] !== "CreateAction") continue;
    const table = file.replace(/\.(csv|parquet)$/, "");
    const objects = refIds(action.object);
    const traced = objects.includes(`#query-${table}`) && ids.has(`#query-${table}`);
    const keys = ids.has(`#cache-keys-${table}`) ||
      objects.some((id) => typeof id === "string" && id.startsWith("#cache-keys-"));
    if (traced && !keys) files.add(file);
  }
  return files;
}

/** The `@id`s an entity's property refers to (one reference or a list). */
function refIds(value: unknown): unknown[] {
  if (value === undefined) return [];
  return [value].flat().map((ref) => (ref as { "@id"?: unknown } | null)?.["@id"]);
}

/**
 * The digest of each table the re-run wrote, computed here from its Parquet
 * file (never read from the crate the re-run wrote, which its code could
 * fill with the expected digests): the files the bundle records, and any
 * other Parquet file there.
 */
async function reproducedDigests(
  dir: string,
  recorded: Iterable<string>,
  source: string,
  bounds: ParquetBounds,
): Promise<Map<string, string>> {
  const names = new Set(recorded);
  let extra = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      // Tables the bundle does not record are listed as new, up to a bound a re-run cannot stretch.
      if (entry.name.endsWith(".parquet") && !names.has(entry.name) && extra++ < MAX_NEW_TABLES) {
        names.add(entry.name);
      }
    }
  } catch {
    throw new TidepoolError(
      `${source} ran, but wrote no bundle where the paper's is (the same place in its project)`,
      { hint: "Reproduce with the notebook or script that wrote this bundle, unchanged" },
    );
  }
  const digests = new Map<string, string>();
  for (const name of names) {
    const state = await fileState(dir, name);
    if (state.kind !== "file") continue; // not written, or not a regular file: missing
    try {
      digests.set(name, tableDigest(await readBoundedTable(dir, name, bounds)).sha256);
    } catch (error) {
      // The re-run's file is untrusted too: one past the bound is refused before it is decoded.
      digests.set(name, `unreadable: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return digests;
}

/** The most tables not in the bundle that a reproduction lists (and reads). */
const MAX_NEW_TABLES = 100;

/** What the reproduction compared, said in every verdict. */
const COMPARED =
  "compared: each table's digest (tableDigest of the Parquet file the re-run wrote, computed by reproduce) with the digest the bundle's RO-Crate records; to check the bundle's own files (CSV, Parquet, SVG and metadata bytes), run verify on it";

function compare(
  name: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  unrecorded: ReadonlySet<string>,
  allowNotRecorded: boolean,
): Reproduction {
  const files = [...new Set([...before.keys(), ...after.keys()])].sort();
  const rows: ReproducedTable[] = files.map((file) => {
    const recorded = before.get(file) ?? null;
    const reproduced = after.get(file) ?? null;
    const status = recorded === null
      ? "new"
      : recorded !== reproduced && unrecorded.has(file)
      ? "not recorded"
      : reproduced === null
      ? "missing"
      : recorded === reproduced
      ? "same"
      : "changed";
    // A name the re-run chose is shown inert: no escape sequence, no line of its own.
    return { file: inlineText(file), status, recorded, reproduced };
  });
  const skipped = rows.filter((row) => row.status === "not recorded");
  const differ = rows.filter((row) =>
    row.status !== "same" && (row.status !== "not recorded" || !allowNotRecorded)
  );
  const same = rows.filter((row) => row.status === "same").length;
  const ok = differ.length === 0 && same > 0;
  const notRecorded = skipped.length
    ? `${skipped.length} came from requests no recording keeps (signed), so a replay cannot give them back: ${
      skipped.map((row) => row.file).join(", ")
    }${
      allowNotRecorded
        ? " (accepted on the word of the bundle's RO-Crate: not re-made, not compared)"
        : " (pass --allow-not-recorded, or allowNotRecorded: true, to accept the RO-Crate's word for them)"
    }`
    : "";
  const summary = ok
    ? `${name}: reproduced: ${same} of ${rows.length} tables have the digests the bundle records${
      notRecorded ? `; ${notRecorded}` : ""
    }\n${COMPARED}`
    : same === 0 && differ.length === 0
    ? `${name}: nothing reproduced: 0 of ${rows.length} tables were re-made; ${notRecorded}\n${COMPARED}`
    : `${name}: ${differ.length} of ${rows.length} tables differ:\n` +
      differ.map((row) =>
        `- ${row.file}: ${row.status}${
          row.reproduced?.startsWith("unreadable") ? ` (${row.reproduced})` : ""
        }`
      ).join("\n") +
      (notRecorded ? `\n${notRecorded}` : "") + `\n${COMPARED}`;
  return { ok, tables: buildTable(reproducedSchema, rows), summary };
}
