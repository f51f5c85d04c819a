/**
 * `verify` on bundles written by someone else: a crate (or a data package,
 * or SHA256SUMS) naming files outside the bundle (`..`, absolute paths,
 * /dev/zero), a FIFO, a symbolic link, malformed percent-encoding, and a
 * declared size far above the real one. Each runs `deno task verify`'s
 * entry point as a child process under a V8 heap cap, its memory read from
 * /proc, and is judged on what the child did, not on what it says: it ended by itself
 * (a FIFO opened for reading would block it for good), its peak memory
 * stayed bounded (/dev/zero read whole would not), it raised no uncaught
 * exception, and nothing of the file outside the bundle (its text, its
 * SHA-256, its column names) reached its output.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { sha256Hex } from "../../lib/bundle/_sha256.ts";
import { watchedDeno, type WatchedRun } from "./_bounded_child.ts";
import { lyingFooter, parquetBomb } from "./_parquet_bombs.ts";

const VERIFY = new URL("../../verify.ts", import.meta.url).pathname;
/** The V8 heap cap of the child, in MB, and the most resident memory allowed, in KB. */
const HEAP_MB = 128;
const MAX_RSS_KB = 600 * 1024;
const SECRET = "aws_secret_access_key";
const SECRET_VALUE = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

/** A scratch folder with a fresh bundle in it and a victim's file beside it. */
async function scene(): Promise<{ root: string; bundle: string; victim: string }> {
  const root = await Deno.makeTempDir({ prefix: "tidepool-hostile-" });
  const bundle = `${root}/bundle`;
  await saveBundle(bundle, {
    draft: true,
    tables: { counts: aq.table({ emotion: ["喜", "怒"], n: [3, 1] }) },
  });
  await Deno.mkdir(`${root}/victim`);
  const victim = `${root}/victim/creds.csv`;
  await Deno.writeTextFile(victim, `${SECRET},region\n${SECRET_VALUE},eu\n`);
  return { root, bundle, victim };
}

/** Adds parts to the bundle's crate, each a File with the given fields. */
async function addParts(bundle: string, parts: Record<string, Record<string, unknown>>) {
  const path = `${bundle}/ro-crate-metadata.json`;
  const crate = JSON.parse(await Deno.readTextFile(path));
  const root = crate["@graph"].find((entity: { "@id": string }) => entity["@id"] === "./");
  for (const [id, fields] of Object.entries(parts)) {
    root.hasPart.push({ "@id": id });
    crate["@graph"].push({ "@id": id, "@type": "File", ...fields });
  }
  await Deno.writeTextFile(path, JSON.stringify(crate));
}

type ChildRun = WatchedRun;

/**
 * `verify.ts` on a bundle, as a child with a V8 heap cap, its peak memory
 * read from /proc while it runs. A child past the memory bound, or still
 * running at the time bound, is killed at once (a runaway read would take
 * the machine's memory) and the test fails on what it did.
 */
function verifyAsChild(bundle: string, timeLimitMs = 120_000): Promise<ChildRun> {
  return watchedDeno(
    [
      "run",
      `--v8-flags=--max-old-space-size=${HEAP_MB}`,
      "--allow-read",
      "--frozen",
      VERIFY,
      bundle,
    ],
    { maxRssKb: MAX_RSS_KB, timeLimitMs },
  );
}

/** What every hostile bundle must leave true of the child and its output. */
async function assertContained(run: ChildRun, victim: string) {
  assert.equal(run.code, 1, `verify reports problems and exits 1:\n${run.out}`);
  assert.doesNotMatch(run.out, /Uncaught|error: /, "no uncaught exception");
  assert.match(run.out, /\d+ problems? \(/, "the verdict is printed");
  assert.ok(run.maxRssKb > 0 && run.maxRssKb < MAX_RSS_KB, `peak memory ${run.maxRssKb} KB`);
  const bytes = await Deno.readFile(victim);
  for (const leak of [SECRET, SECRET_VALUE, (await sha256Hex(bytes)).slice(0, 12)]) {
    assert.ok(!run.out.includes(leak), `the output holds ${leak}`);
  }
}

Deno.test("verify reads nothing outside the bundle: .., absolute paths and /dev/zero", async () => {
  const { root, bundle, victim } = await scene();
  try {
    const size = String((await Deno.stat(victim)).size);
    await addParts(bundle, {
      "../victim/creds.csv": { contentSize: size, identifier: { "@id": "#digest-counts.csv" } },
      [encodeURI(victim)]: { contentSize: size },
      "..%2Fvictim%2Fcreds.csv": { contentSize: size },
      "../../../../../../../../dev/zero": { contentSize: "1000000000000" },
      "/dev/zero": {},
    });
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    for (const named of ["../victim/creds.csv", "../../../../../../../../dev/zero"]) {
      assert.ok(run.out.includes(named), `the problem rows name ${named}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify opens no FIFO, follows no symbolic link, and survives malformed escapes", async () => {
  const { root, bundle, victim } = await scene();
  try {
    const fifo = await new Deno.Command("mkfifo", { args: [`${bundle}/pipe.csv`] }).output();
    assert.equal(fifo.code, 0, "mkfifo");
    await Deno.symlink(victim, `${bundle}/link.csv`);
    await Deno.symlink("/dev/zero", `${bundle}/zero.csv`);
    await addParts(bundle, {
      "pipe.csv": { contentSize: "10" },
      "link.csv": { contentSize: String((await Deno.stat(victim)).size) },
      "zero.csv": { contentSize: "1000000000000" },
      "%E0%A4%A": {},
      "a%00b": {},
      "%": {},
    });
    // The data package names them too, and a resource path that is not text.
    const packagePath = `${bundle}/datapackage.json`;
    const descriptor = JSON.parse(await Deno.readTextFile(packagePath));
    descriptor.resources.push(
      { path: "pipe.csv" },
      { path: "../victim/creds.csv" },
      { path: ["a", "b"] },
      null,
    );
    await Deno.writeTextFile(packagePath, JSON.stringify(descriptor));
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    assert.match(run.out, /pipe\.csv: not a regular file/);
    assert.match(run.out, /link\.csv: a symbolic link/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify compares sizes before hashing: a declared size far above the real one", async () => {
  const { root, bundle, victim } = await scene();
  try {
    const path = `${bundle}/ro-crate-metadata.json`;
    const crate = JSON.parse(await Deno.readTextFile(path));
    const csv = crate["@graph"].find((entity: { "@id": string }) => entity["@id"] === "counts.csv");
    csv.contentSize = "999999999999";
    await Deno.writeTextFile(path, JSON.stringify(crate));
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    assert.match(run.out, /counts\.csv: changed: its size is \d+ bytes, the RO-Crate recorded 999/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify on hostile metadata files: the crate a FIFO, the sums /dev/zero, the crate not JSON", async () => {
  const { root, bundle, victim } = await scene();
  try {
    await Deno.remove(`${bundle}/SHA256SUMS`).catch(() => {});
    await Deno.symlink("/dev/zero", `${bundle}/SHA256SUMS`);
    await Deno.writeTextFile(`${bundle}/ro-crate-metadata.json`, '{"@graph": [null, 1, "x", {');
    const broken = await verifyAsChild(bundle);
    await assertContained(broken, victim);
    assert.match(broken.out, /ro-crate-metadata\.json: cannot be read/);

    await Deno.remove(`${bundle}/ro-crate-metadata.json`);
    const fifo = await new Deno.Command("mkfifo", {
      args: [`${bundle}/ro-crate-metadata.json`],
    }).output();
    assert.equal(fifo.code, 0, "mkfifo");
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    assert.match(run.out, /ro-crate-metadata\.json: cannot be read: not a regular file/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// readTable reads `<table>.provenance.json` beside a CSV table: a file the
// bundle may hold, never checked by verify (not a regular-file check, no
// size bound), so it must never be opened.

Deno.test("verify opens no FIFO beside a CSV table: counts.csv.provenance.json as a FIFO never hangs it", async () => {
  const { root, bundle, victim } = await scene();
  try {
    const fifo = await new Deno.Command("mkfifo", {
      args: [`${bundle}/counts.csv.provenance.json`],
    }).output();
    assert.equal(fifo.code, 0, "mkfifo");
    const run = await verifyAsChild(bundle, 30_000);
    await assertContained(run, victim);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify follows no link beside a CSV table: counts.csv.provenance.json linked to another file prints none of it", async () => {
  const { root, bundle, victim } = await scene();
  try {
    await Deno.symlink(victim, `${bundle}/counts.csv.provenance.json`);
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    // Any 8 characters of the other file are a leak, not only the whole secret.
    for (const part of [SECRET.slice(0, 8), SECRET_VALUE.slice(0, 8)]) {
      assert.ok(!run.out.includes(part), `the output holds ${part}, from ${victim}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify reads nothing unbounded beside a CSV table: counts.csv.provenance.json linked to /dev/zero", async () => {
  const { root, bundle, victim } = await scene();
  try {
    await Deno.symlink("/dev/zero", `${bundle}/counts.csv.provenance.json`);
    const run = await verifyAsChild(bundle, 60_000);
    await assertContained(run, victim);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify's memory stays bounded on a Parquet bomb: a small file whose pages expand to millions of rows", async () => {
  const { root, bundle, victim } = await scene();
  try {
    // 15 million equal values: under 100 KB of Parquet, hundreds of MB once decoded and digested.
    const bomb = await parquetBomb(15_000_000);
    assert.ok(bomb.length < 200_000, `the bomb is ${bomb.length} bytes`);
    await Deno.writeFile(`${bundle}/counts.parquet`, bomb);
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify's memory stays bounded on a Parquet file whose footer declares 10 rows and whose pages hold 15 million", async () => {
  const { root, bundle, victim } = await scene();
  try {
    await Deno.writeFile(`${bundle}/counts.parquet`, await lyingFooter(15_000_000, 10));
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    // Read only as far as the footer says: 10 rows, another table than the one recorded.
    assert.match(run.out, /counts\.parquet: holds another table: 10 rows/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify refuses a table past the cell bound before decoding it, and the reviewer sets the bound", async () => {
  const { root, bundle, victim } = await scene();
  try {
    await Deno.writeFile(`${bundle}/counts.parquet`, await parquetBomb(15_000_000));
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    assert.match(
      run.out,
      /counts\.parquet: cannot be read as a table: The Parquet file is too large to read: its footer declares 15000000 rows of 1 columns, more than 10000000 cells/,
    );
    // The bound is the reviewer's to raise: a small one refuses the bundle's real table too.
    const strict = await watchedDeno(
      ["run", "--allow-read", "--frozen", VERIFY, bundle, "--max-table-cells", "3"],
      { maxRssKb: MAX_RSS_KB, timeLimitMs: 120_000 },
    );
    assert.equal(strict.code, 1, strict.out);
    assert.match(strict.out, /counts\.csv: cannot be read as a table: .*more than 3 cells/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("verify prints no control character of the bundle's: a digest's description with terminal escapes", async () => {
  const { root, bundle, victim } = await scene();
  try {
    const path = `${bundle}/ro-crate-metadata.json`;
    const crate = JSON.parse(await Deno.readTextFile(path));
    const digest = crate["@graph"].find((entity: { "@id": string }) =>
      entity["@id"] === "#digest-counts.parquet"
    );
    assert.ok(digest, "the crate records the table's digest");
    // Clear the screen, go home and paint a verdict of its own.
    digest.value = "0".repeat(64);
    digest.description = "x: \u001b[2J\u001b[H\u001b]0;ok\u0007all holds: 5 files match";
    await Deno.writeTextFile(path, JSON.stringify(crate));
    const run = await verifyAsChild(bundle);
    await assertContained(run, victim);
    assert.match(run.out, /counts\.parquet: holds another table/);
    for (const control of ["\u001b", "\u0007"]) {
      assert.ok(!run.out.includes(control), "the output holds the bundle's terminal escapes");
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
