/**
 * Checks a bundle the way a reviewer would want it checked: every file
 * against the SHA-256 and size its RO-Crate recorded, every table file read
 * back and its table digest compared, `datapackage.json` against the files,
 * and nothing in the folder the crate does not list. What differs is said
 * per file, as a table and in words.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { readTable } from "../files/read_table.ts";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { tableDigest } from "../table/table_digest.ts";
import { TABLE_DIGEST_NAME } from "./_ro_crate.ts";
import { sha256Hex } from "./_sha256.ts";

/** One thing that does not hold. */
export interface BundleProblem {
  /** The file it concerns, as the bundle names it. */
  path: string;
  /** What was checked: `file`, `table`, `datapackage` or `crate`. */
  check: "file" | "table" | "datapackage" | "crate";
  /** What differs, in words. */
  problem: string;
}

/** What {@linkcode verifyBundle} found. */
export interface BundleVerification {
  /** Whether everything holds. */
  readonly ok: boolean;
  /** The problems, one row each: `path, check, problem`; empty when all holds. */
  readonly problems: ColumnTable;
  /** How many files and tables were checked. */
  readonly checked: { readonly files: number; readonly tables: number };
  /** The verdict in words: what holds, or every problem. */
  readonly summary: string;
}

const problemSchema: TableSchema<BundleProblem> = defineSchema(
  [
    { name: "path", type: "string", description: "The file, as the bundle names it" },
    { name: "check", type: "string", description: "file, table, datapackage or crate" },
    { name: "problem", type: "string", description: "What differs" },
  ] as const,
);

const CRATE = "ro-crate-metadata.json";
const PACKAGE = "datapackage.json";

type Entity = Record<string, unknown> & { "@id"?: unknown };

interface FileNow {
  bytes: number;
  sha256: string;
}

/**
 * Verifies a bundle written by `saveBundle`: files, tables, data package.
 *
 * @param dir The bundle folder.
 * @returns Whether all holds, the problems as a table and in words.
 *
 * @example Checking a bundle
 * ```ts ignore
 * const check = await verifyBundle("paper/data");
 * if (!check.ok) console.log(check.summary);
 * ```
 */
export async function verifyBundle(dir: string): Promise<BundleVerification> {
  const problems: BundleProblem[] = [];
  const found = (path: string, check: BundleProblem["check"], problem: string) =>
    problems.push({ path, check, problem });
  const inFolder = await folderFiles(dir);
  let graph: Entity[];
  try {
    const crate = JSON.parse(await Deno.readTextFile(`${dir}/${CRATE}`));
    if (!Array.isArray(crate?.["@graph"])) throw new Error("it has no @graph");
    graph = crate["@graph"];
  } catch (error) {
    found(
      CRATE,
      "crate",
      error instanceof Deno.errors.NotFound
        ? "missing: without it nothing in the folder can be checked"
        : `cannot be read: ${(error as Error).message}`,
    );
    return verdict(dir, problems, { files: 0, tables: 0 });
  }
  const byId = new Map(graph.map((entity) => [entity?.["@id"], entity]));
  const root = byId.get("./");
  const parts = [root?.hasPart].flat().map((part) => (part as Entity)?.["@id"])
    .filter((id): id is string => typeof id === "string");
  if (!root || parts.length === 0) {
    found(CRATE, "crate", "lists no files (its root has no hasPart)");
  }

  const listed = new Map<string, Entity>();
  const now = new Map<string, FileNow>();
  for (const id of parts) {
    const path = decodeURI(id);
    const entity = byId.get(id) ?? {};
    listed.set(path, entity);
    const file = await describe(`${dir}/${path}`);
    if (!file) {
      found(path, "file", `missing: the RO-Crate lists it (SHA-256 ${short(entity.sha256)})`);
      continue;
    }
    now.set(path, file);
    if (entity.sha256 !== file.sha256) {
      found(
        path,
        "file",
        `changed: its SHA-256 is ${short(file.sha256)}, the RO-Crate recorded ${
          short(entity.sha256)
        }${sizeChange(entity.contentSize, file.bytes)}`,
      );
    }
  }
  for (const path of inFolder) {
    if (path !== CRATE && !listed.has(path)) {
      found(path, "file", "extra: in the folder, not listed in the RO-Crate");
    }
  }

  let tables = 0;
  for (const [path, entity] of listed) {
    const digestId = (entity.identifier as Entity | undefined)?.["@id"];
    const recorded = byId.get(digestId);
    if (recorded?.name !== TABLE_DIGEST_NAME || !now.has(path)) continue;
    tables++;
    let digest;
    try {
      digest = tableDigest(await readTable(`${dir}/${path}`));
    } catch (error) {
      found(path, "table", `cannot be read as a table: ${(error as Error).message.split("\n")[0]}`);
      continue;
    }
    if (digest.sha256 !== recorded.value) {
      found(
        path,
        "table",
        `holds another table: ${digest.rows} rows, columns ${digest.columns.join(", ")}, digest ${
          short(digest.sha256)
        }; the RO-Crate recorded digest ${short(recorded.value)} (${
          String(recorded.description ?? "").replace(/^.*?: /, "")
        })`,
      );
    }
  }

  await checkDataPackage(dir, listed, now, found);
  return verdict(dir, problems, { files: listed.size, tables });
}

/** `datapackage.json` against the files: each resource there, the same bytes, every data file listed. */
async function checkDataPackage(
  dir: string,
  listed: ReadonlyMap<string, Entity>,
  now: ReadonlyMap<string, FileNow>,
  found: (path: string, check: BundleProblem["check"], problem: string) => void,
): Promise<void> {
  if (!listed.has(PACKAGE)) return; // a bundle without one: the crate check has said so if it should
  let resources: Entity[];
  try {
    const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/${PACKAGE}`));
    resources = Array.isArray(descriptor?.resources) ? descriptor.resources : [];
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      found(PACKAGE, "datapackage", `cannot be read: ${(error as Error).message}`);
    }
    return;
  }
  const described = new Set<string>();
  for (const resource of resources) {
    const path = resource.path;
    if (typeof path !== "string") continue;
    described.add(path);
    const file = now.get(path) ?? await describe(`${dir}/${path}`);
    if (!file) {
      found(path, "datapackage", "missing: datapackage.json lists it, the folder has no such file");
      continue;
    }
    if (resource.hash !== `sha256:${file.sha256}`) {
      found(
        path,
        "datapackage",
        `datapackage.json records hash ${short(String(resource.hash))}, the file has ${
          short(file.sha256)
        }`,
      );
    }
  }
  for (const path of listed.keys()) {
    if (path !== PACKAGE && /\.(csv|parquet|svg)$/.test(path) && !described.has(path)) {
      found(path, "datapackage", "not described in datapackage.json");
    }
  }
}

function verdict(
  dir: string,
  problems: BundleProblem[],
  checked: { files: number; tables: number },
): BundleVerification {
  const ok = problems.length === 0;
  const counted = `${checked.files} files and ${checked.tables} table files`;
  const summary = ok
    ? `${dir}: all holds: ${counted} match what the RO-Crate recorded, and datapackage.json matches the files`
    : `${dir}: ${problems.length} ${
      problems.length === 1 ? "problem" : "problems"
    } (${counted} checked):\n` +
      problems.map((p) => `- ${p.path}: ${p.problem}`).join("\n");
  return { ok, problems: buildTable(problemSchema, problems), checked, summary };
}

/** The files directly in the folder (a bundle has no subfolders). */
async function folderFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      names.push(entry.isFile ? entry.name : `${entry.name}/`);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

async function describe(path: string): Promise<FileNow | undefined> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory) {
      return undefined;
    }
    throw error;
  }
  return { bytes: bytes.byteLength, sha256: await sha256Hex(bytes) };
}

/** The first 12 digits of a hash, enough to tell two apart in a message. */
function short(hash: unknown): string {
  return typeof hash === "string" ? `${hash.replace(/^sha256:/, "").slice(0, 12)}…` : "none";
}

function sizeChange(recorded: unknown, bytes: number): string {
  return String(recorded) === String(bytes) ? "" : ` (${bytes} bytes, recorded ${recorded})`;
}
