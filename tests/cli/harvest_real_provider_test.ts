/**
 * `tidepool harvest --to FILE` night after night against the real Catmandu
 * OAI-PMH provider, into CSV, NDJSON and Parquet: a night with nothing new
 * leaves the file byte for byte as it was; a night with a change, a
 * deletion and a record stamped in the last night's second merges them and
 * keeps every other cell exactly, though the table has 1,200 rows and list
 * columns first filled after row 1,000, and text that looks like numbers,
 * booleans and dates, with leading zeros and spaces.
 */

import assert from "node:assert/strict";
import { readTable } from "../../lib/files/read_table.ts";
import { OaiPmh } from "../../lib/archive/oai/oai_pmh.ts";
import { runTidepool } from "./_run_cli.ts";
import { oaiId, type ProviderRecord, startProvider } from "../archive/oai/_provider_records.ts";

const LAST = "2024-06-01T12:00:00Z";
const ROWS = 1_250;

/** Record `i`: lists empty for the first 1,050 rows, then text that looks typed. */
function record(i: number): ProviderRecord {
  const id = `rec-${String(i).padStart(5, "0")}`;
  const late = i >= 1_050;
  return {
    _id: id,
    datestamp: i === ROWS - 1 ? LAST : `2024-05-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z`,
    title: [`Title ${i}`],
    ...(late
      ? {
        description: [`${" ".repeat(i % 3)}${"long text ".repeat(1_000)}  `],
        subject: ["true", "false", "12", "00123", "1e5", "2021-01-01", " padded "],
        date: ["2021-01-01", "2021"],
        identifier: ["007", "0x1F", "NaN", "null"],
      }
      : {}),
  };
}

/** Whether two cells (or rows) are the same, compared as JSON. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** SHA-256 of a file, in hex. */
async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A text file's header and rows, as text: each row starts with its identifier (a raw cell holds line breaks). */
async function lines(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  const rows = path.endsWith(".csv") ? text.split(/\n(?=oai:repo\.example:)/) : text.split("\n");
  return rows.map((row) => row.replace(/\n$/, ""));
}

Deno.test("tidepool harvest: night after night into CSV, NDJSON and Parquet, against the real provider", async (t) => {
  const records = Array.from({ length: ROWS }, (_, i) => record(i));
  await using provider = await startProvider(records);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-real-harvest-" });
  const outputs = [
    { file: "recs.csv", args: [] },
    { file: "raw.csv", args: ["--raw"] },
    { file: "recs.ndjson", args: [] },
    { file: "recs.parquet", args: [] },
  ];
  const harvest = async (file: string, args: string[]) => {
    const run = await runTidepool(["harvest", provider.url, "--to", file, ...args], {
      cwd: dir,
      timeoutMs: 300_000,
    });
    assert.equal(run.code, 0, run.stderr);
    return run.stderr;
  };
  try {
    const first = new Map<string, { hash: string; lines: string[]; rows: unknown[] }>();
    await t.step("night 1: every record", async () => {
      for (const { file, args } of outputs) {
        assert.match(await harvest(file, args), /harvest: 1,250 records to /);
        const path = `${dir}/${file}`;
        const table = await readTable(path, { inferTypes: false });
        assert.equal(table.numRows(), ROWS);
        first.set(file, {
          hash: await sha256(path),
          lines: file.endsWith(".parquet") ? [] : await lines(path),
          rows: table.objects(),
        });
      }
    });

    await t.step("night 2: nothing new leaves every file byte for byte as it was", async () => {
      for (const { file, args } of outputs) {
        assert.match(await harvest(file, args), /0 new or changed records merged/);
        assert.equal(await sha256(`${dir}/${file}`), first.get(file)!.hash, file);
      }
    });

    // Night 3: one record stamped in night 1's last second, a change, a deletion.
    const changed = 1_100;
    const removed = 1_200;
    const night3 = records.map((r) => ({ ...r }));
    night3[changed] = { ...night3[changed], datestamp: "2024-06-02T00:00:00Z", title: ["New"] };
    night3[removed] = {
      _id: night3[removed]._id,
      datestamp: "2024-06-02T00:00:01Z",
      deleted: true,
    };
    night3.push({ ...record(ROWS), _id: "rec-99999", datestamp: LAST, title: ["Same second"] });
    await provider.restart(night3);
    const expected = await new OaiPmh(provider.url, { progress: false }).harvest({ raw: true });
    const ids = expected.array("identifier") as string[];

    await t.step("night 3: the changes are merged, every other cell kept exactly", async () => {
      for (const { file, args } of outputs) {
        assert.match(await harvest(file, args), /3 new or changed records merged .*1,251 records/);
        const path = `${dir}/${file}`;
        // CSV read as text: a guess from the first 1,000 rows would misread the later lists.
        const table = await readTable(path, { inferTypes: false });
        assert.deepEqual(table.array("identifier"), ids, `${file}: each record once, in order`);
        const before = first.get(file)!;
        if (!file.endsWith(".parquet")) {
          // The text formats: the same lines, but for the changed and deleted rows and the new one.
          const after = await lines(path);
          const header = file.endsWith(".csv") ? 1 : 0;
          assert.equal(after.filter((l) => l).length, before.lines.filter((l) => l).length + 1);
          for (let row = 0; row < ROWS; row++) {
            if (row === changed || row === removed) continue;
            // Compared without printing 10 KB cells.
            assert.ok(after[header + row] === before.lines[header + row], `${file} row ${row}`);
          }
          if (header) assert.equal(after[0], before.lines[0], `${file}: the same columns`);
        } else {
          const rows = table.objects();
          for (let row = 0; row < ROWS; row++) {
            if (row === changed || row === removed) continue;
            // Compared as JSON, without a diff of 10 KB cells.
            assert.ok(same(rows[row], before.rows[row]), `${file} row ${row}`);
          }
        }
        const rows = table.objects() as Record<string, unknown>[];
        const text = (value: unknown) => typeof value === "string" ? JSON.parse(value) : value;
        assert.deepEqual(text(rows[changed]["dc:title"]), ["New"]);
        assert.equal(String(rows[removed].deleted), "true");
        assert.equal(rows[removed]["dc:title"], null);
        assert.equal(rows[ROWS].identifier, oaiId("rec-99999"));
        // The cells against the provider's records, harvested apart in one run.
        for (const row of [0, 1_049, 1_050, 1_249, ROWS]) {
          for (const name of ["dc:description", "dc:subject", "dc:identifier"]) {
            assert.ok(
              same(text(rows[row][name]) ?? null, expected.get(name, row) ?? null),
              `${file} row ${row} ${name}`,
            );
          }
        }
        if (args.includes("--raw")) {
          assert.ok(rows[ROWS].raw === expected.get("raw", ROWS), "the new record's XML");
          assert.ok(rows[7].raw === expected.get("raw", 7), "an earlier record's XML");
        }
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
