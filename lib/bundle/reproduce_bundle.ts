/**
 * Reproduces a paper's bundle: re-runs the notebook or script that made it
 * from its recording, with the network denied, in a scratch copy of its
 * project (so nothing of the author's is written over), and compares every
 * table digest the new bundle records with the old one's.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { basename, dirname, join, relative, resolve } from "node:path";
import { TidepoolError } from "../errors/errors.ts";
import { checkOptions } from "../options/check_options.ts";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { TABLE_DIGEST_NAME } from "./_ro_crate.ts";
import { executeNotebookArgs } from "./_execute_notebook_args.ts";

/** One table of the bundle, as recorded and as reproduced. */
export interface ReproducedTable {
  /** The table's file, such as `orders.parquet`. */
  file: string;
  /**
   * `same`, `changed`, `missing` (not reproduced), `new` (not in the bundle),
   * or `not recorded`: the table came from requests a recording never keeps
   * (signed ones, such as a compute job's results), so a replay cannot give
   * it back; it is reported, and does not fail the reproduction.
   */
  status: "same" | "changed" | "missing" | "new" | "not recorded";
  /** The digest the bundle records, or null. */
  recorded: string | null;
  /** The digest of the reproduced table, or null. */
  reproduced: string | null;
}

/** What {@linkcode reproduceBundle} found. */
export interface Reproduction {
  /** Whether every table came out with the digest the bundle records. */
  readonly ok: boolean;
  /** One row per table file: `file, status, recorded, reproduced`. */
  readonly tables: ColumnTable;
  /** The verdict in words. */
  readonly summary: string;
}

/** Where the run reads its recording, and what else it needs. */
export interface ReproduceOptions {
  /** The recording the notebook or script was run with (`TIDEPOOL_CACHE_DIR`); default `.cache/tidepool` beside it. */
  recording?: string;
  /** Arguments for a script. */
  args?: readonly string[];
  /** The longest the run may take; default 30 minutes. */
  timeoutMs?: number;
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
 * Re-runs a notebook (`.ipynb`, in the Deno Jupyter kernel) or a script
 * (`.ts`, `.js`) from its recording with the network denied, in a scratch
 * copy of its project, and compares the bundle it writes with the one given.
 *
 * @param bundleDir The bundle the paper cites.
 * @param source The notebook or script that wrote it.
 * @param options The recording, script arguments and time limit.
 * @returns Per table, whether its digest is the same.
 * @throws {TidepoolError} When the run fails, or writes no bundle where the paper's is.
 *
 * @example Reproducing a paper's tables
 * ```ts ignore
 * const result = await reproduceBundle("out/bundle", "analysis.ipynb");
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
  });
  const bundle = resolve(bundleDir);
  const sourcePath = resolve(source);
  const root = await projectRoot(dirname(sourcePath));
  const recording = resolve(options.recording ?? join(root, ".cache/tidepool"));
  const fromRoot = relative(root, bundle);
  if (fromRoot.startsWith("..")) {
    throw new TidepoolError(
      `Cannot reproduce ${bundleDir}: it is outside the project of ${source}`,
      {
        hint: `Keep the bundle inside ${root}, where the notebook or script writes it`,
      },
    );
  }
  await Deno.stat(`${recording}`).catch(() => {
    throw new TidepoolError(`Cannot reproduce ${bundleDir}: no recording at ${recording}`, {
      hint: "Give the folder the notebook recorded into (TIDEPOOL_CACHE_DIR) as the recording",
    });
  });
  // The bundle's crate is read once, and before the run: a folder that is no bundle fails at once.
  const recorded = await crateGraph(bundle);
  const before = recordedDigests(recorded);
  const unrecorded = unrecordedFiles(recorded);
  const scratch = await Deno.makeTempDir({ prefix: "tidepool-reproduce-" });
  try {
    // The author's files stay as they are: the run writes into a copy, without the bundle.
    await copyProject(root, scratch, new Set([bundle, recording, join(root, ".git")]));
    const copiedSource = join(scratch, relative(root, sourcePath));
    await runOffline(copiedSource, recording, options);
    const reproduced = join(scratch, fromRoot);
    const after = await crateGraph(reproduced).then(recordedDigests, () => {
      throw new TidepoolError(
        `${
          basename(source)
        } ran, but wrote no bundle at ${fromRoot} (the bundle's place in its project)`,
        { hint: "Reproduce with the notebook or script that wrote this bundle, unchanged" },
      );
    });
    return compare(bundleDir, before, after, unrecorded);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** The nearest folder with a deno.json above the source, or the source's own folder. */
async function projectRoot(from: string): Promise<string> {
  for (let dir = from;; dir = dirname(dir)) {
    for (const name of ["deno.json", "deno.jsonc"]) {
      if (await Deno.stat(join(dir, name)).then(() => true, () => false)) return dir;
    }
    if (dirname(dir) === dir) return from;
  }
}

async function copyProject(from: string, to: string, skip: ReadonlySet<string>): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const path = join(from, entry.name);
    if (skip.has(path) || entry.name === "node_modules") continue;
    if (entry.isDirectory) await copyProject(path, join(to, entry.name), skip);
    else if (entry.isFile) await Deno.copyFile(path, join(to, entry.name));
    else if (entry.isSymlink) await Deno.symlink(await Deno.readLink(path), join(to, entry.name));
  }
}

/** Runs the copy in replay with the network denied; fails with the end of its log. */
async function runOffline(source: string, recording: string, options: ReproduceOptions) {
  const env = {
    ...Deno.env.toObject(),
    TIDEPOOL_CACHE_MODE: "replay",
    TIDEPOOL_CACHE_DIR: recording,
  };
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30 * 60_000);
  const notebook = source.endsWith(".ipynb");
  // The kernel takes no permission flags: a first cell takes the network away for the rest of the run.
  if (notebook) await denyNetworkFirst(source);
  const command = notebook
    ? new Deno.Command("jupyter", {
      args: [
        "nbconvert",
        ...executeNotebookArgs(Math.ceil((options.timeoutMs ?? 30 * 60_000) / 1000)),
        "--output-dir",
        dirname(source),
        "--output",
        `${basename(source, ".ipynb")}.reproduced.ipynb`,
        source,
      ],
      cwd: dirname(source),
      env,
      stdout: "piped",
      stderr: "piped",
      signal,
    })
    : new Deno.Command(Deno.execPath(), {
      // Everything but the network: a request the recording lacks is a replay miss, never a fetch.
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run",
        "--allow-ffi",
        "--allow-sys",
        "--deny-net",
        source,
        ...(options.args ?? []),
      ],
      cwd: dirname(source),
      env,
      stdout: "piped",
      stderr: "piped",
      signal,
    });
  const { code, stderr, stdout } = await command.output();
  if (code !== 0) {
    const log = new TextDecoder().decode(stderr).trim() || new TextDecoder().decode(stdout).trim();
    throw new TidepoolError(`The re-run of ${basename(source)} failed (exit code ${code})`, {
      details: log.slice(-1500),
      detailsLabel: "It said",
      hint:
        "A CacheMissError means the recording lacks a request the code now sends: run it again with TIDEPOOL_CACHE_MODE=record, or use the code as it was when recorded",
    });
  }
}

/** Puts a cell before every other in the (copied) notebook that revokes network access. */
async function denyNetworkFirst(path: string): Promise<void> {
  const notebook = JSON.parse(await Deno.readTextFile(path));
  const cell = {
    cell_type: "code",
    execution_count: null,
    metadata: {},
    outputs: [],
    source: 'Deno.permissions.revokeSync({ name: "net" }); // added by reproduce: replay offline',
  };
  notebook.cells = [cell, ...(Array.isArray(notebook.cells) ? notebook.cells : [])];
  await Deno.writeTextFile(path, JSON.stringify(notebook));
}

type CrateGraph = Record<string, unknown>[];

/** The entities of a bundle's RO-Crate. */
async function crateGraph(dir: string): Promise<CrateGraph> {
  const crate = JSON.parse(await Deno.readTextFile(join(dir, "ro-crate-metadata.json")));
  return Array.isArray(crate?.["@graph"]) ? crate["@graph"] : [];
}

/** The table digests a bundle's RO-Crate records, by file. */
function recordedDigests(graph: CrateGraph): Map<string, string> {
  const byId = new Map(graph.map((entity) => [entity["@id"], entity]));
  const digests = new Map<string, string>();
  for (const entity of graph) {
    const digest = byId.get((entity.identifier as { "@id"?: string } | undefined)?.["@id"]);
    if (digest?.name !== TABLE_DIGEST_NAME || typeof entity["@id"] !== "string") continue;
    if (!entity["@id"].endsWith(".parquet")) continue; // the Parquet file keeps the types
    digests.set(decodeURI(entity["@id"]), String(digest.value));
  }
  return digests;
}

/**
 * The table files whose call was traced but none of whose requests were
 * recorded (its CreateAction has an object and no cache keys), and the
 * tables derived from them.
 */
function unrecordedFiles(graph: CrateGraph): Set<string> {
  const files = new Set<string>();
  for (const action of graph) {
    if (action["@type"] !== "CreateAction" || action.object === undefined) continue;
    const objects = [action.object].flat() as { "@id"?: string }[];
    if (objects.some((ref) => ref?.["@id"]?.startsWith("#cache-keys-"))) continue;
    for (const result of [action.result].flat() as { "@id"?: string }[]) {
      if (typeof result?.["@id"] === "string") files.add(decodeURI(result["@id"]));
    }
  }
  return files;
}

function compare(
  name: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  unrecorded: ReadonlySet<string>,
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
    return { file, status, recorded, reproduced };
  });
  const differ = rows.filter((row) => row.status !== "same" && row.status !== "not recorded");
  const skipped = rows.filter((row) => row.status === "not recorded");
  const ok = differ.length === 0;
  const same = rows.length - differ.length - skipped.length;
  const notRecorded = skipped.length
    ? `; ${skipped.length} came from requests no recording keeps (signed), so a replay cannot give them back: ${
      skipped.map((row) => row.file).join(", ")
    }`
    : "";
  const summary = ok
    ? `${name}: reproduced: ${same} of ${rows.length} tables have the digests the bundle records${notRecorded}`
    : `${name}: ${differ.length} of ${rows.length} tables differ:\n` +
      differ.map((row) => `- ${row.file}: ${row.status}`).join("\n") +
      (notRecorded ? `\n${notRecorded.slice(2)}` : "");
  return { ok, tables: buildTable(reproducedSchema, rows), summary };
}
