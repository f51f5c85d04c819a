/**
 * Checks a bundle the way a reviewer would want it checked: every file
 * against the SHA-256 and size its RO-Crate recorded, every table file read
 * back and its table digest compared, `datapackage.json` and `SHA256SUMS`
 * against the files, and nothing in the folder the crate does not list.
 * The bundle is untrusted: see {@linkcode verifyBundle} for what is read. What differs is said
 * per file, as a table and in words.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { tableDigest } from "../table/table_digest.ts";
import { TABLE_DIGEST_NAME } from "./_ro_crate.ts";
import { bundleName, fileState, hashKnownSize, readSmallText } from "./_bundle_file.ts";
import { readBoundedTableFile, tableBounds } from "./_table_bounds.ts";
import { comparePair, tableFiles } from "./_csv_matches_parquet.ts";
import { checkReadingTerms } from "./_csv_reading_terms.ts";
import { folderEntries, LISTING_LIMIT, withinLimit } from "./_bundle_folder.ts";
import { inlineText } from "../errors/terminal_text.ts";
import type { ParquetBounds } from "../dataset/parquet.ts";
import { checkOptions } from "../options/check_options.ts";
import { parseSha256sums, SHA256SUMS, SHA256SUMS_LIMIT } from "./_sha256sums.ts";

/** One thing that does not hold. */
export interface BundleProblem {
  /** The file it concerns, as the bundle names it. */
  path: string;
  /** What was checked: `file`, `table`, `datapackage`, `crate` or `sums` (`SHA256SUMS`). */
  check: "file" | "table" | "datapackage" | "crate" | "sums";
  /** What differs, in words. */
  problem: string;
}

/** How {@linkcode verifyBundle} reads a bundle. */
export interface VerifyOptions {
  /** The most cells (rows × columns) a table may have to be read back; default 10,000,000. */
  maxTableCells?: number;
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
    {
      name: "check",
      type: "string",
      description: "file, table, datapackage, crate or sums",
    },
    { name: "problem", type: "string", description: "What differs" },
  ] as const,
);

const CRATE = "ro-crate-metadata.json";
const PACKAGE = "datapackage.json";
/** The most bytes the crate or the data package may have: far above any bundle's, far below memory. */
const METADATA_LIMIT = 64 * 1024 * 1024;

type Entity = Record<string, unknown> & { "@id"?: unknown };

interface FileNow {
  bytes: number;
  sha256: string;
}

/**
 * Verifies a bundle written by `saveBundle`: files, tables, data package and
 * `SHA256SUMS`. The folder may be hostile: only regular files directly
 * inside it are read (a name with `..`, an absolute path, a symbolic link, a
 * device or a FIFO is a problem row, never opened), a file's size is
 * compared with what the RO-Crate declares before a byte is hashed, a
 * table is read back only within `maxTableCells` (its Parquet footer read
 * before a page is decoded) and 512 MiB, and a malformed entry is a
 * problem row, never an exception.
 *
 * @param dir The bundle folder.
 * @param options `maxTableCells`: the most cells (rows × columns) a table
 *   may have to be read back; default 10,000,000.
 * @returns Whether all holds, the problems as a table and in words.
 *
 * @example Checking a bundle
 * ```ts
 * import * as aq from "arquero";
 * import { saveBundle } from "./save_bundle.ts";
 * const dir = `${await Deno.makeTempDir()}/paper`;
 * await saveBundle(dir, {
 *   tables: { counts: aq.table({ tag: ["sea", "air"], n: [3, 1] }) },
 *   title: "Tags",
 *   license: "https://creativecommons.org/licenses/by/4.0/",
 * });
 * const check = await verifyBundle(dir);
 * if (!check.ok) console.log(check.summary);
 * console.log(check.ok);
 * ```
 */
export async function verifyBundle(
  dir: string,
  options: VerifyOptions = {},
): Promise<BundleVerification> {
  checkOptions("verifyBundle", options, { maxTableCells: "number" });
  const bounds = tableBounds(options.maxTableCells);
  const problems: BundleProblem[] = [];
  const found: Found = (path, check, problem) =>
    problems.push({ path: printable(path), check, problem: inlineText(problem) });
  const checked = { files: 0, tables: 0 };
  try {
    await checkBundle(dir, found, checked, bounds);
  } catch (error) {
    // Every known case is a row of its own; this is the last guard of "never an exception".
    found(CRATE, "crate", `cannot be checked: ${(error as Error)?.message ?? String(error)}`);
  }
  return verdict(dir, problems, checked);
}

type Found = (path: string, check: BundleProblem["check"], problem: string) => void;

async function checkBundle(
  dir: string,
  found: Found,
  checked: { files: number; tables: number },
  bounds: ParquetBounds,
): Promise<void> {
  const read = await readSmallText(dir, CRATE, METADATA_LIMIT);
  let graph: Entity[];
  try {
    if ("missing" in read) {
      found(CRATE, "crate", "missing: without it nothing in the folder can be checked");
      return;
    }
    if ("problem" in read) throw new Error(read.problem);
    const crate = JSON.parse(read.text);
    if (!Array.isArray(crate?.["@graph"])) throw new Error("it has no @graph");
    graph = crate["@graph"].filter((entity: unknown) => entity && typeof entity === "object");
  } catch (error) {
    found(CRATE, "crate", `cannot be read: ${(error as Error).message}`);
    return;
  }
  const byId = new Map(graph.map((entity) => [entity["@id"], entity]));
  const root = byId.get("./");
  const parts = [root?.hasPart].flat().filter((part) => part !== undefined).map((part) =>
    (part as Entity)?.["@id"]
  );
  if (!root || parts.length === 0) {
    found(CRATE, "crate", "lists no files (its root has no hasPart)");
  }

  const listed = new Map<string, Entity>();
  const now = new Map<string, FileNow>();
  // Regular files inside the bundle, hashed or not: each may be read back as a table.
  const regular = new Set<string>();
  const twice = new Map<string, number>();
  for (
    const id of withinLimit(
      parts,
      (n) => found(CRATE, "crate", overLimit(n, "files in its root's hasPart")),
    )
  ) {
    const name = bundleName(id);
    if ("refused" in name) {
      found(String(id), "file", `not checked: the RO-Crate lists it, but it ${name.refused}`);
      continue;
    }
    const path = name.name;
    // A file listed again is checked once; the repetition is a problem of its own.
    if (listed.has(path)) {
      twice.set(path, (twice.get(path) ?? 1) + 1);
      continue;
    }
    const entity = byId.get(id) ?? {};
    listed.set(path, entity);
    const file = await checkedFile(dir, path, entity.contentSize, "the RO-Crate");
    if (!("problem" in file) || file.regular) regular.add(path);
    if ("problem" in file) {
      found(path, "file", file.problem);
      continue;
    }
    now.set(path, file);
    if (entity.sha256 !== file.sha256) {
      found(
        path,
        "file",
        `changed: its SHA-256 is ${short(file.sha256)}, the RO-Crate recorded ${
          short(entity.sha256)
        }`,
      );
    }
  }
  for (const [path, times] of twice) {
    found(
      path,
      "crate",
      `listed ${times} times in the RO-Crate's hasPart: a bundle lists each file once`,
    );
  }
  const inFolder = await folderEntries(dir);
  for (const [path, kind] of inFolder) {
    if (path !== CRATE && path !== SHA256SUMS && !listed.has(path)) {
      found(path, "file", `extra: in the folder, not listed in the RO-Crate${kind}`);
    }
  }
  checked.files = listed.size;

  // A table's CSV and Parquet files are read one after the other, so that the pair is compared
  // while both are held, and each is read once. A file with no table digest is still read when
  // the other file of its table is there: what a reader opens is compared either way.
  const resources = await packageResources(dir, listed, found);
  const described = resourcesByPath(resources);
  const tables = tableFiles([...listed.keys()].filter((path) => regular.has(path)));
  for (const paths of tables.values()) {
    const paired = paths.some((p) => /\.csv$/i.test(p)) && paths.some((p) => /\.parquet$/i.test(p));
    const reads = new Map<string, { table: ColumnTable; csvText?: string }>();
    for (const path of paths) {
      const digestId = (listed.get(path)!.identifier as Entity | undefined)?.["@id"];
      const recorded = byId.get(digestId);
      const digested = recorded?.name === TABLE_DIGEST_NAME;
      if (!digested && !paired) continue;
      checked.tables++;
      let digest;
      try {
        const read = await readBoundedTableFile(dir, path, bounds);
        reads.set(path, read);
        digest = tableDigest(read.table);
      } catch (error) {
        found(
          path,
          "table",
          `cannot be read as a table: ${(error as Error).message.split("\n")[0]}`,
        );
        continue;
      }
      if (digested && digest.sha256 !== recorded.value) {
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
    // A pair that reads apart is said once: its reading terms are checked when its cells agree.
    const differing = await comparePair(reads, found);
    if (differing.size === 0) checkReadingTerms(reads, described, found);
  }

  await checkDataPackage(dir, resources, listed, now, found);
  await checkSums(dir, listed, found);
}

/**
 * A regular file's size and SHA-256, or what keeps it from being hashed:
 * missing, not a regular file, or a size other than the one recorded
 * (compared before a byte is read).
 */
async function checkedFile(
  dir: string,
  path: string,
  recordedSize: unknown,
  by: string,
): Promise<FileNow | { problem: string; regular?: boolean }> {
  const state = await fileState(dir, path);
  if (state.kind === "missing") return { problem: `missing: ${by} lists it` };
  if (state.kind === "refused") return { problem: state.problem };
  if (recordedSize !== undefined && String(recordedSize) !== String(state.bytes)) {
    return {
      problem: `changed: its size is ${state.bytes} bytes, ${by} recorded ${
        printable(String(recordedSize)).slice(0, 40)
      } (not hashed)`,
      regular: true,
    };
  }
  try {
    return await hashKnownSize(`${dir}/${path}`, state.bytes);
  } catch (error) {
    return { problem: `cannot be read: ${(error as Error).message}` };
  }
}

/** The resources of `datapackage.json`, read once; undefined when it is not listed, missing or unreadable (said). */
async function packageResources(
  dir: string,
  listed: ReadonlyMap<string, Entity>,
  found: Found,
): Promise<unknown[] | undefined> {
  if (!listed.has(PACKAGE)) return undefined; // a bundle without one: the crate check has said so if it should
  const read = await readSmallText(dir, PACKAGE, METADATA_LIMIT);
  if ("missing" in read) return undefined; // the crate check has said so
  try {
    if ("problem" in read) throw new Error(read.problem);
    const descriptor = JSON.parse(read.text);
    return Array.isArray(descriptor?.resources) ? descriptor.resources : [];
  } catch (error) {
    found(PACKAGE, "datapackage", `cannot be read: ${(error as Error).message}`);
    return undefined;
  }
}

/** Each resource by the file it names, the first one for a name. */
function resourcesByPath(resources: unknown[] | undefined): Map<string, Entity> {
  const byPath = new Map<string, Entity>();
  for (const resource of withinLimit(resources ?? [], () => {})) {
    const name = bundleName((resource as Entity | null)?.path, false);
    if (!("refused" in name) && !byPath.has(name.name)) byPath.set(name.name, resource as Entity);
  }
  return byPath;
}

/** `datapackage.json` against the files: each resource there, the same bytes, every data file listed. */
async function checkDataPackage(
  dir: string,
  resources: unknown[] | undefined,
  listed: ReadonlyMap<string, Entity>,
  now: ReadonlyMap<string, FileNow>,
  found: Found,
): Promise<void> {
  if (!resources) return;
  const described = new Set<string>();
  const listedResources = withinLimit(
    resources,
    (n) => found(PACKAGE, "datapackage", overLimit(n, "resources")),
  );
  for (const [index, resource] of listedResources.entries()) {
    const given = (resource as Entity | null)?.path;
    const name = bundleName(given, false);
    if ("refused" in name) {
      found(
        typeof given === "string" ? given : `resource ${index + 1}`,
        "datapackage",
        `not checked: datapackage.json lists it, but its path ${name.refused}`,
      );
      continue;
    }
    const path = name.name;
    if (described.has(path)) {
      found(path, "datapackage", "described more than once in datapackage.json");
      continue;
    }
    described.add(path);
    const file = now.get(path) ??
      await checkedFile(dir, path, (resource as Entity).bytes, "datapackage.json");
    if ("problem" in file) {
      found(path, "datapackage", file.problem);
      continue;
    }
    const hash = (resource as Entity).hash;
    if (hash !== `sha256:${file.sha256}`) {
      found(
        path,
        "datapackage",
        `datapackage.json records hash ${short(String(hash))}, the file has ${short(file.sha256)}`,
      );
    }
  }
  for (const path of listed.keys()) {
    if (path !== PACKAGE && /\.(csv|parquet|svg)$/.test(path) && !described.has(path)) {
      found(path, "datapackage", "not described in datapackage.json");
    }
  }
}

/**
 * `SHA256SUMS` against the RO-Crate and the crate's own file: the same
 * files, with the SHA-256 the crate recorded (a file changed since is the
 * crate check's row, not this one's), and the crate file as it is now. So
 * `sha256sum -c SHA256SUMS` and verify agree, and an edited crate is caught.
 */
async function checkSums(
  dir: string,
  listed: ReadonlyMap<string, Entity>,
  found: Found,
): Promise<void> {
  const read = await readSmallText(dir, SHA256SUMS, SHA256SUMS_LIMIT);
  if ("missing" in read) {
    found(
      SHA256SUMS,
      "sums",
      "missing: every bundle tidepool writes has one, for sha256sum -c SHA256SUMS",
    );
    return;
  }
  if ("problem" in read) {
    found(SHA256SUMS, "sums", read.problem);
    return;
  }
  const named = new Set<string>();
  const lines = withinLimit(
    parseSha256sums(read.text),
    (n) => found(SHA256SUMS, "sums", overLimit(n, "lines")),
  );
  for (const line of lines) {
    if ("problem" in line) {
      found(SHA256SUMS, "sums", `line ${line.line} ${line.problem}`);
      continue;
    }
    const name = bundleName(line.name, false);
    if ("refused" in name) {
      found(line.name, "sums", `not checked: SHA256SUMS lists it, but it ${name.refused}`);
      continue;
    }
    if (named.has(name.name)) {
      found(name.name, "sums", "listed more than once in SHA256SUMS");
      continue;
    }
    named.add(name.name);
    let expected: unknown;
    if (name.name === CRATE) {
      const file = await checkedFile(dir, CRATE, undefined, "SHA256SUMS");
      if ("problem" in file) {
        found(CRATE, "sums", file.problem);
        continue;
      }
      expected = file.sha256;
      if (expected !== line.sha256) {
        found(
          CRATE,
          "sums",
          `changed: its SHA-256 is ${short(expected)}, SHA256SUMS recorded ${short(line.sha256)}`,
        );
      }
      continue;
    }
    if (!listed.has(name.name)) {
      found(name.name, "sums", "SHA256SUMS lists it, the RO-Crate does not");
      continue;
    }
    expected = listed.get(name.name)?.sha256;
    if (expected !== line.sha256) {
      found(
        name.name,
        "sums",
        `SHA256SUMS records ${short(line.sha256)}, the RO-Crate ${short(expected)}`,
      );
    }
  }
  for (const path of [CRATE, ...listed.keys()]) {
    if (!named.has(path)) {
      found(path, "sums", "not in SHA256SUMS: sha256sum -c would not check it");
    }
  }
}

/** The problem of a listing past {@linkcode LISTING_LIMIT}. */
function overLimit(count: number, what: string): string {
  return `lists ${count} ${what}, more than the ${LISTING_LIMIT} verify checks: the rest is not checked`;
}

function verdict(
  dir: string,
  problems: BundleProblem[],
  checked: { files: number; tables: number },
): BundleVerification {
  const ok = problems.length === 0;
  const counted = `${checked.files} files and ${checked.tables} table files`;
  const summary = ok
    ? `${dir}: all holds: ${counted} match what the RO-Crate recorded, and datapackage.json and SHA256SUMS match the files`
    : `${dir}: ${problems.length} ${
      problems.length === 1 ? "problem" : "problems"
    } (${counted} checked):\n` +
      problems.map((p) => `- ${p.path}: ${p.problem}`).join("\n");
  return { ok, problems: buildTable(problemSchema, problems), checked, summary };
}

/** Text from a hostile file shown safely: control characters as `\u` escapes, at most 200 characters. */
function printable(text: string): string {
  const shown = inlineText(text);
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

/** The first 12 digits of a hash, enough to tell two apart in a message. */
function short(hash: unknown): string {
  return typeof hash === "string"
    ? `${printable(hash.replace(/^sha256:/, "").slice(0, 12))}…`
    : "none";
}
