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

import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { tableDigest } from "../table/table_digest.ts";
import { TABLE_DIGEST_NAME } from "./_ro_crate.ts";
import { bundleName, readSmallText } from "./_bundle_file.ts";
import { readBoundedTableFile, tableBounds } from "./_table_bounds.ts";
import { comparePair, tableFiles } from "./_csv_matches_parquet.ts";
import { checkReadingTerms } from "./_csv_reading_terms.ts";
import { folderEntries, withinLimit } from "./_bundle_folder.ts";
import { inlineText } from "../errors/terminal_text.ts";
import type { ParquetBounds } from "../dataset/parquet.ts";
import { checkOptions } from "../options/check_options.ts";
import type { BundleProblem, BundleVerification, VerifyOptions } from "./verify_types.ts";
import {
  checkedFile,
  CRATE,
  type Entity,
  type FileNow,
  type Found,
  METADATA_LIMIT,
  overLimit,
  printable,
  short,
} from "./_verify_common.ts";
import { checkDataPackage, packageResources, resourcesByPath } from "./_package_check.ts";
import { checkSums } from "./_sums_check.ts";
import { SHA256SUMS } from "./_sha256sums.ts";
import type { ColumnTable } from "arquero";

export type { BundleProblem, BundleVerification, VerifyOptions } from "./verify_types.ts";

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
