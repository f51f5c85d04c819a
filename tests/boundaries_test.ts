/**
 * The module boundaries of issue 14, checked by reading the import lines of
 * every source file: a change that crosses one fails here, with the file and
 * the import named.
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const LIB = join(ROOT, "lib");

/** Every .ts file below a folder, as absolute paths. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...sourceFiles(path));
    else if (entry.isFile && entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** The relative imports of a file (static, dynamic and re-exports), resolved to absolute paths. */
function importsOf(file: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;
  const text = Deno.readTextFileSync(file);
  for (const match of text.matchAll(pattern)) {
    const line = text.slice(0, match.index).split("\n").length;
    found.push({ line, target: resolve(dirname(file), match[1]) });
  }
  return found;
}

/** The imports, below `from`, of files the predicate refuses, as `file:line -> target`. */
function crossings(from: string, refused: (target: string) => boolean): string[] {
  return sourceFiles(from).flatMap((file) =>
    importsOf(file).filter(({ target }) => refused(target)).map(({ line, target }) =>
      `${relative(ROOT, file)}:${line} -> ${relative(ROOT, target)}`
    )
  );
}

const inside = (folder: string) => (path: string) => path.startsWith(`${join(LIB, folder)}/`);
const isPrivate = (path: string) => path.split("/").pop()!.startsWith("_");

Deno.test("the scan sees imports (it would catch a crossing)", () => {
  const client = importsOf(join(LIB, "http", "client.ts")).map(({ target }) => target);
  assert.ok(client.includes(join(LIB, "progress", "progress.ts")));
  const seen = crossings(join(LIB, "ocean"), inside("http"));
  assert.ok(seen.length > 10, `${seen.length} imports of lib/http from lib/ocean`);
});

Deno.test("lib/http imports nothing from lib/notebook (progress rendering is passed in)", () => {
  assert.deepEqual(crossings(join(LIB, "http"), inside("notebook")), []);
});

Deno.test("Ocean publish/ and download/ import no compute/ internals", () => {
  const internal = (path: string) => inside("ocean/compute")(path) && isPrivate(path);
  assert.deepEqual([
    ...crossings(join(LIB, "ocean", "publish"), internal),
    ...crossings(join(LIB, "ocean", "download"), internal),
  ], []);
});

Deno.test("the sandbox imports nothing private from the clients", () => {
  const clientPrivate = (path: string) =>
    path.startsWith(`${LIB}/`) && !inside("sandbox")(path) &&
    relative(LIB, path).split("/").some((part) => part.startsWith("_"));
  assert.deepEqual(crossings(join(LIB, "sandbox"), clientPrivate), []);
});

Deno.test("no error is classified by matching its message text", () => {
  const pattern =
    /\.(?:message|shortMessage)\s*\.\s*(?:startsWith|endsWith|includes|match|search)\s*\(|\.test\(\s*[\w.]*\.(?:message|shortMessage)\s*\)/;
  const found = sourceFiles(LIB).flatMap((file) =>
    Deno.readTextFileSync(file).split("\n").flatMap((line, i) =>
      pattern.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : []
    )
  );
  assert.deepEqual(found, []);
});

/** The files below lib/ whose text matches, as paths relative to the root. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(LIB).filter((file) => pattern.test(Deno.readTextFileSync(file)))
    .map((file) => relative(ROOT, file)).sort();
}

Deno.test("one atomic file write: renames happen in lib/fs's helpers only (and the sandbox's uploads)", () => {
  assert.deepEqual(filesMatching(/Deno\.rename\(/), [
    "lib/fs/name_new_file.ts", // links first, so an existing name is never replaced
    "lib/fs/own_file.ts", // moveOwnFile: a pending copy of tidepool's own file committed
    "lib/fs/write_file_atomic.ts",
    "lib/sandbox/archive/uploads_handler.ts", // streams a PUT body to the temporary name
  ]);
});

Deno.test("one file-name sanitiser: Windows devices and the byte limit are known in one file", () => {
  assert.deepEqual(filesMatching(/lpt\[0-9/i), ["lib/fs/safe_file_name.ts"]);
});

Deno.test("one polling helper: only lib/http pauses (pacing, retries, pollUntil)", () => {
  assert.deepEqual(filesMatching(/\bsleep\(/), [
    "lib/http/_retry_loop.ts",
    "lib/http/pacer.ts",
    "lib/http/poll_until.ts",
    "lib/http/sleep.ts",
  ]);
});
