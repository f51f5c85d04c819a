/**
 * `datapackage.json` against the bundle's files, for `verifyBundle`.
 *
 * @module
 */

import { bundleName, readSmallText } from "./_bundle_file.ts";
import { withinLimit } from "./_bundle_folder.ts";
import {
  checkedFile,
  type Entity,
  type FileNow,
  type Found,
  METADATA_LIMIT,
  overLimit,
  PACKAGE,
  short,
} from "./_verify_common.ts";

/** The resources of `datapackage.json`, read once; undefined when it is not listed, missing or unreadable (said). */
export async function packageResources(
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
export function resourcesByPath(resources: unknown[] | undefined): Map<string, Entity> {
  const byPath = new Map<string, Entity>();
  for (const resource of withinLimit(resources ?? [], () => {})) {
    const name = bundleName((resource as Entity | null)?.path, false);
    if (!("refused" in name) && !byPath.has(name.name)) byPath.set(name.name, resource as Entity);
  }
  return byPath;
}

/** `datapackage.json` against the files: each resource there, the same bytes, every data file listed. */
export async function checkDataPackage(
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
