/**
 * verifyBundle and `deno task verify` as a reviewer uses them: a fresh
 * bundle holds, and each tampering is named, file by file, with what
 * differs: one byte of a CSV, a Parquet file swapped for another table's,
 * a file removed, a file added, datapackage.json edited.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { type BundleProblem, verifyBundle } from "../../lib/bundle/verify_bundle.ts";
import { rows } from "../../lib/table/typed_rows.ts";

const root = new URL("../../", import.meta.url).pathname;

/** A fresh bundle of two tables and a chart in a new folder. */
async function freshBundle(): Promise<string> {
  const dir = `${await Deno.makeTempDir()}/bundle`;
  await saveBundle(dir, {
    title: "Two tables",
    tables: {
      counts: aq.table({ emotion: ["喜", "怒", "哀"], n: [3, 1, 2] }),
      books: aq.table({ pid: ["b1", "b2"], title: ["坊っちゃん", "こころ"], year: [1906, 1914] }),
    },
    plots: { chart: '<svg xmlns="http://www.w3.org/2000/svg"><title>n</title></svg>' },
    license: "https://creativecommons.org/licenses/by/4.0/",
  });
  return dir;
}

/** The problems as `path check` lines, sorted, to compare whole. */
function named(problems: aq.ColumnTable): string[] {
  return rows<BundleProblem>(problems).map((p) => `${p.path} ${p.check}`).sort();
}

function problemOf(problems: aq.ColumnTable, path: string, check: string): string {
  const found = rows<BundleProblem>(problems).find((p) => p.path === path && p.check === check);
  assert.ok(found, `no ${check} problem for ${path}`);
  return found.problem;
}

Deno.test("a fresh bundle holds: every file, every table and the data package", async () => {
  const dir = await freshBundle();
  const check = await verifyBundle(dir);
  assert.equal(check.ok, true, check.summary);
  assert.equal(check.problems.numRows(), 0);
  assert.deepEqual(check.checked, { files: 8, tables: 4 });
  assert.match(check.summary, /all holds: 8 files and 4 table files/);
});

Deno.test("each tampering is named: the file, the check, and what differs", async (t) => {
  await t.step("one byte of a CSV", async () => {
    const dir = await freshBundle();
    const text = await Deno.readTextFile(`${dir}/counts.csv`);
    await Deno.writeTextFile(`${dir}/counts.csv`, text.replace("3", "4"));
    const check = await verifyBundle(dir);
    assert.equal(check.ok, false);
    // The digest the crate recorded, and the Parquet file of the same table, both disagree.
    assert.deepEqual(named(check.problems), [
      "counts.csv datapackage",
      "counts.csv file",
      "counts.csv table",
      "counts.csv table",
    ]);
    assert.match(
      problemOf(check.problems, "counts.csv", "file"),
      /^changed: its SHA-256 is \w{12}…, the RO-Crate recorded \w{12}…$/,
    );
    assert.match(
      problemOf(check.problems, "counts.csv", "table"),
      /^holds another table: 3 rows, columns emotion, n, digest/,
    );
  });

  await t.step("a Parquet file replaced by another table's", async () => {
    const dir = await freshBundle();
    await Deno.copyFile(`${dir}/books.parquet`, `${dir}/counts.parquet`);
    const check = await verifyBundle(dir);
    assert.deepEqual(named(check.problems), [
      "counts.csv table",
      "counts.parquet datapackage",
      "counts.parquet file",
      "counts.parquet table",
    ]);
    assert.match(
      problemOf(check.problems, "counts.csv", "table"),
      /^says something else than counts\.parquet, the same table: its columns are "emotion", "n", the Parquet file's "pid", "title", "year"$/,
    );
    assert.match(
      problemOf(check.problems, "counts.parquet", "file"),
      /^changed: its size is \d+ bytes, the RO-Crate recorded \d+ \(not hashed\)$/,
    );
    assert.match(
      problemOf(check.problems, "counts.parquet", "table"),
      /^holds another table: 2 rows, columns pid, title, year, .*recorded digest \w{12}… \(3 rows, columns emotion \(string\), n \(number\)\)/,
    );
  });

  await t.step("a file removed", async () => {
    const dir = await freshBundle();
    await Deno.remove(`${dir}/chart.svg`);
    const check = await verifyBundle(dir);
    assert.deepEqual(named(check.problems), ["chart.svg datapackage", "chart.svg file"]);
    assert.match(problemOf(check.problems, "chart.svg", "file"), /^missing: the RO-Crate lists it/);
  });

  await t.step("a file added", async () => {
    const dir = await freshBundle();
    await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
    const check = await verifyBundle(dir);
    assert.deepEqual(named(check.problems), ["notes.txt file"]);
    assert.equal(
      problemOf(check.problems, "notes.txt", "file"),
      "extra: in the folder, not listed in the RO-Crate",
    );
  });

  await t.step("datapackage.json edited", async () => {
    const dir = await freshBundle();
    const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
    descriptor.title = "Another title";
    await Deno.writeTextFile(`${dir}/datapackage.json`, JSON.stringify(descriptor, null, 2));
    const check = await verifyBundle(dir);
    assert.deepEqual(named(check.problems), ["datapackage.json file"]);
  });

  await t.step("the RO-Crate removed", async () => {
    const dir = await freshBundle();
    await Deno.remove(`${dir}/ro-crate-metadata.json`);
    const check = await verifyBundle(dir);
    assert.deepEqual(named(check.problems), ["ro-crate-metadata.json crate"]);
  });
});

Deno.test("deno task verify exits 0 on a fresh bundle and 1 naming what changed", async () => {
  const dir = await freshBundle();
  const run = async () => {
    const { code, stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "verify", dir],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code, text: new TextDecoder().decode(stdout) };
  };
  const fresh = await run();
  assert.equal(fresh.code, 0, fresh.text);
  assert.match(fresh.text, /all holds/);
  await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
  const tampered = await run();
  assert.equal(tampered.code, 1, tampered.text);
  assert.match(tampered.text, /notes\.txt: extra: in the folder, not listed in the RO-Crate/);
  assert.match(tampered.text, /1 problem \(8 files and 4 table files checked\)/);
});

/** `sha256sum -c SHA256SUMS` run in the bundle folder, as on any machine without tidepool. */
async function sha256sumCheck(dir: string): Promise<{ code: number; text: string }> {
  const { code, stdout, stderr } = await new Deno.Command("sha256sum", {
    args: ["-c", "SHA256SUMS"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, text: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

Deno.test("SHA256SUMS: sha256sum -c checks every file, the crate too, and verify checks the sums", async () => {
  const dir = await freshBundle();
  const fresh = await sha256sumCheck(dir);
  assert.equal(fresh.code, 0, fresh.text);
  const checked = fresh.text.trim().split("\n").map((line) => line.replace(/: OK$/, "")).sort();
  const inFolder = [...Deno.readDirSync(dir)].map((entry) => entry.name)
    .filter((name) => name !== "SHA256SUMS").sort();
  assert.deepEqual(checked, inFolder, "every other file of the bundle, the crate included");

  // The crate edited: only the sums catch it, with sha256sum and with verify alike.
  const crate = await Deno.readTextFile(`${dir}/ro-crate-metadata.json`);
  await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, crate.replace("Two tables", "Three"));
  const edited = await sha256sumCheck(dir);
  assert.equal(edited.code, 1);
  assert.match(edited.text, /ro-crate-metadata\.json: FAILED/);
  assert.deepEqual(named((await verifyBundle(dir)).problems), ["ro-crate-metadata.json sums"]);
  await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, crate);

  // The sums edited, or one line removed, or the file removed: verify says so.
  const sums = await Deno.readTextFile(`${dir}/SHA256SUMS`);
  const lines = sums.trimEnd().split("\n");
  const countsLine = lines.findIndex((line) => line.endsWith("  counts.csv"));
  await Deno.writeTextFile(
    `${dir}/SHA256SUMS`,
    lines.map((line, i) => i === countsLine ? `${"0".repeat(64)}  counts.csv` : line).join("\n"),
  );
  assert.deepEqual(named((await verifyBundle(dir)).problems), ["counts.csv sums"]);
  await Deno.writeTextFile(
    `${dir}/SHA256SUMS`,
    lines.filter((_, i) => i !== countsLine).join("\n"),
  );
  assert.match(
    problemOf((await verifyBundle(dir)).problems, "counts.csv", "sums"),
    /^not in SHA256SUMS/,
  );
  await Deno.remove(`${dir}/SHA256SUMS`);
  assert.deepEqual(named((await verifyBundle(dir)).problems), ["SHA256SUMS sums"]);
});
