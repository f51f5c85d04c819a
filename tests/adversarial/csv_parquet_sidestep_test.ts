/**
 * One step to the side of "verify compares each table's CSV with its
 * Parquet": bundles whose CSV a spreadsheet reads otherwise than the
 * Parquet, yet whose every record (crate SHA-256, size and table digest,
 * `datapackage.json`, `SHA256SUMS`) is rewritten to match, so that
 * `sha256sum -c` (run as a child) passes. `verify` (the command, as a child)
 * must fail naming the CSV. Two classes:
 *
 * - A CSV the comparison's own reader normalised away: a row with a cell
 *   past the header (one reader drops it, a spreadsheet shows it in a third
 *   column), text after a closing quote (`"1"0`: 1 to one reader, 10 to
 *   another), a line ended by a carriage return alone, bytes that are not
 *   UTF-8 (replaced by U+FFFD, as the Parquet holds, while a spreadsheet
 *   shows a letter).
 * - A pair never compared: the CSV's crate entry without a table digest, and
 *   another table whose file names sort between `counts.csv` and
 *   `counts.parquet`.
 *
 * What the CSV says is checked on the bytes on disk, not through tidepool.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { resync, run } from "./_bundle_rewrite.ts";

const VERIFY = new URL("../../verify.ts", import.meta.url).pathname;

type Entity = Record<string, unknown> & { "@id": string };

/** The bundle rewritten as `edit` says, then made consistent; sha256sum -c passes on it. */
async function hostileBundle(
  root: string,
  tables: Record<string, aq.ColumnTable>,
  edit: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = `${root}/bundle`;
  await saveBundle(dir, { draft: true, tables });
  await edit(dir);
  await resync(dir);
  const sums = await run("sha256sum", ["-c", "--quiet", "SHA256SUMS"], dir);
  assert.equal(sums.code, 0, `the rewrite is consistent: ${sums.out}`);
  return dir;
}

async function editText(dir: string, name: string, edit: (text: string) => string) {
  await Deno.writeTextFile(`${dir}/${name}`, edit(await Deno.readTextFile(`${dir}/${name}`)));
}

/** The CSV's lines as bytes on disk, split at line feeds and commas (no cell here is quoted). */
async function rawLines(path: string): Promise<string[][]> {
  const text = new TextDecoder("latin1").decode(await Deno.readFile(path));
  return text.split("\n").filter((line) => line !== "").map((line) => line.split(","));
}

const COUNTS = () => aq.table({ k: ["A", "B", "C"], n: [10, 20, 30] });

interface Case {
  what: string;
  tables: () => Record<string, aq.ColumnTable>;
  edit: (dir: string) => Promise<void>;
  /** What the bytes on disk show, which the Parquet does not say. */
  onDisk: (dir: string) => Promise<void>;
}

const CASES: Case[] = [
  {
    what: "a row with a cell past the header",
    tables: () => ({ counts: COUNTS() }),
    edit: (dir) => editText(dir, "counts.csv", (t) => t.replace("A,10\n", "A,10,99999\n")),
    onDisk: async (dir) => {
      const lines = await rawLines(`${dir}/counts.csv`);
      assert.deepEqual([lines[0].length, lines[1]], [2, ["A", "10", "99999"]]);
    },
  },
  {
    what: "text after a closing quote",
    tables: () => ({ counts: aq.table({ k: ["A", "B"], n: [1, 2] }) }),
    // A reader that stops at the closing quote reads 1, as the Parquet holds; a spreadsheet 10.
    edit: (dir) => editText(dir, "counts.csv", (t) => t.replace("A,1\n", 'A,"1"0\n')),
    onDisk: async (dir) => {
      assert.match(await Deno.readTextFile(`${dir}/counts.csv`), /^A,"1"0$/m);
    },
  },
  {
    what: "a line ended by a carriage return alone",
    tables: () => ({ counts: COUNTS() }),
    edit: (dir) => editText(dir, "counts.csv", (t) => t.replace("A,10\n", "A,10\rZ,99999\n")),
    onDisk: async (dir) => {
      assert.match(await Deno.readTextFile(`${dir}/counts.csv`), /A,10\rZ,99999\n/);
    },
  },
  {
    what: "bytes that are not UTF-8",
    tables: () => ({ counts: aq.table({ k: ["caf\uFFFD", "B"], n: [1, 2] }) }),
    edit: async (dir) => {
      const bytes = await Deno.readFile(`${dir}/counts.csv`);
      const replacement = new TextEncoder().encode("\uFFFD");
      const at = bytes.findIndex((b, i) => b === replacement[0] && bytes[i + 1] === replacement[1]);
      // "caf" then 0xE9: é in Latin-1 and Windows-1252, as a spreadsheet opens it.
      const edited = new Uint8Array([...bytes.slice(0, at), 0xe9, ...bytes.slice(at + 3)]);
      await Deno.writeFile(`${dir}/counts.csv`, edited);
    },
    onDisk: async (dir) => {
      const lines = await rawLines(`${dir}/counts.csv`);
      assert.equal(lines[1][0], "café");
    },
  },
  {
    what: "the CSV listed without a table digest",
    tables: () => ({ counts: COUNTS() }),
    edit: async (dir) => {
      await editText(dir, "counts.csv", (t) => t.replace("A,10\n", "A,99999\n"));
      const crate = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
      delete (crate["@graph"] as Entity[]).find((e) => e["@id"] === "counts.csv")!.identifier;
      await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, JSON.stringify(crate));
    },
    onDisk: async (dir) => {
      assert.deepEqual((await rawLines(`${dir}/counts.csv`))[1], ["A", "99999"]);
    },
  },
  {
    what: "another table's files sorting between the CSV and the Parquet",
    tables: () => ({ counts: COUNTS(), other: aq.table({ x: [1] }) }),
    edit: async (dir) => {
      await editText(dir, "counts.csv", (t) => t.replace("A,10\n", "A,99999\n"));
      for (const ext of ["csv", "parquet"]) {
        await Deno.rename(`${dir}/other.${ext}`, `${dir}/counts.d.${ext}`);
      }
      for (const name of ["ro-crate-metadata.json", "datapackage.json"]) {
        await editText(
          dir,
          name,
          (t) =>
            t.replaceAll('"other.csv"', '"counts.d.csv"').replaceAll(
              '"other.parquet"',
              '"counts.d.parquet"',
            ),
        );
      }
    },
    onDisk: async (dir) => {
      assert.deepEqual((await rawLines(`${dir}/counts.csv`))[1], ["A", "99999"]);
      const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
        n.startsWith("counts.")
      ).sort();
      assert.deepEqual(names, ["counts.csv", "counts.d.csv", "counts.d.parquet", "counts.parquet"]);
    },
  },
];

for (const { what, tables, edit, onDisk } of CASES) {
  Deno.test(`verify fails a bundle whose CSV reads otherwise than its Parquet: ${what}`, async () => {
    const root = await Deno.makeTempDir({ prefix: "tidepool-sidestep-" });
    try {
      const dir = await hostileBundle(root, tables(), edit);
      await onDisk(dir);
      const verified = await run(Deno.execPath(), ["run", "--allow-read", "--frozen", VERIFY, dir]);
      assert.equal(verified.code, 1, verified.out);
      assert.match(verified.out, /counts\.csv: /);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a bundle with CRLF line ends and quoted cells still holds", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-sidestep-" });
  try {
    const dir = await hostileBundle(
      root,
      { counts: COUNTS(), other: aq.table({ x: ["a,b", 'say "hi"'] }) },
      async (dir) => {
        // A checkout that turned line ends into CRLF: every reader reads the same cells.
        await editText(dir, "counts.csv", (t) => t.replaceAll("\n", "\r\n"));
      },
    );
    const verified = await run(Deno.execPath(), ["run", "--allow-read", "--frozen", VERIFY, dir]);
    assert.equal(verified.code, 0, verified.out);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
