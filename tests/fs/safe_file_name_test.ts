/**
 * Every name a server or a caller chooses goes through one sanitiser before
 * it becomes a file name. Each case is checked on the disk: the file is made
 * in a fresh folder, and the folder's own listing says what it is called.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { isWindowsDevice, MAX_NAME_BYTES, safeFileName } from "../../lib/fs/safe_file_name.ts";
import { saveStream } from "../../lib/ocean/download/_save_stream.ts";
import { saveBundle } from "../../lib/bundle/mod.ts";
import { writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { defineSchema } from "../../lib/table/schema.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;
// deno-lint-ignore no-control-regex -- control characters are what must not be in a name
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

/** Names servers have sent, or could: each must come out harmless. */
const HOSTILE = [
  "データ".repeat(60) + ".csv",
  "データ".repeat(60),
  "é".repeat(200) + ".tar.gz",
  "😀".repeat(100) + ".txt",
  "invoice\u202Egpj.exe",
  "report\u2066\u2069\u200F.pdf",
  "a\u0000b\u001bc\u0085d.txt",
  "CON .txt",
  "COM¹.txt",
  "lpt².log",
  "con",
  "NUL.tar.gz",
  "aux .",
  "CONOUT$",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  ".bashrc",
  "name.   ",
  'a<b>c:d"e|f?g*h.txt',
  "\u2028\u2029",
  "",
];

Deno.test("safeFileName: hostile names come out short, visible, in the folder and no device", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = new Set<string>();
    for (const [i, name] of HOSTILE.entries()) {
      const safe = safeFileName(name, `fallback-${i}`);
      assert.ok(bytes(safe) <= MAX_NAME_BYTES, `${safe.length} characters, ${bytes(safe)} bytes`);
      assert.doesNotMatch(safe, INVISIBLE);
      assert.doesNotMatch(safe, /[/\\<>:"|?*]/);
      assert.ok(!safe.startsWith("."), safe);
      assert.ok(!/[. ]$/.test(safe), safe);
      assert.ok(!isWindowsDevice(safe), safe);
      // What the disk makes of it: one file, under exactly this name, in the folder.
      if (made.has(safe)) continue;
      made.add(safe);
      await Deno.writeTextFile(`${dir}/${safe}`, "x");
    }
    const listed = [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
    assert.deepEqual(listed, [...made].sort());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("safeFileName: cut by bytes between characters, the extension kept", () => {
  const safe = safeFileName("データ".repeat(60) + ".csv", "x");
  assert.ok(safe.endsWith(".csv"));
  assert.ok(safe.startsWith("データデータ"));
  assert.ok(bytes(safe) <= MAX_NAME_BYTES && bytes(safe) > MAX_NAME_BYTES - 9);
  assert.equal(safe.normalize(), safe);
  assert.doesNotMatch(safe, /\uFFFD/);
  const emoji = safeFileName("😀".repeat(100) + ".txt", "x");
  assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji), "no half of a surrogate pair");
  assert.equal(safeFileName("invoice\u202Egpj.exe", "x"), "invoice_gpj.exe");
  assert.equal(safeFileName("CON .txt", "x"), "_CON .txt");
  assert.equal(safeFileName("COM¹.txt", "x"), "_COM¹.txt");
  assert.equal(safeFileName("console.txt", "x"), "console.txt");
  assert.equal(safeFileName("", "fallback"), "fallback");
});

Deno.test("a download saved under a 540-byte Japanese name, an RTL override or a device name", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["データ".repeat(60) + ".json", "x\u202Etxt.exe", "CON .txt", "COM¹.txt"]) {
      const body = ReadableStream.from([new TextEncoder().encode(`{"name":"${name}"}`)]);
      const saved = await saveStream(body, { dir, filename: name, fallback: "file", what: name });
      assert.equal(saved.path, `${dir}/${saved.name}`);
      assert.equal(await Deno.readTextFile(saved.path), `{"name":"${name}"}`);
    }
    const listed = [...Deno.readDirSync(dir)].map((entry) => entry.name);
    assert.equal(listed.length, 4);
    for (const name of listed) {
      assert.ok(bytes(name) <= MAX_NAME_BYTES);
      assert.doesNotMatch(name, INVISIBLE);
      assert.ok(!isWindowsDevice(name), name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveBundle: tables and plots named after Windows devices get names Windows can open", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = aq.table({ a: [1, 2] });
    await saveBundle(`${dir}/paper`, {
      draft: true,
      tables: { CON: table, Aux: table, lpt1: table },
    });
    const listed = [...Deno.readDirSync(`${dir}/paper`)].map((entry) => entry.name);
    for (const stem of ["_con", "_aux", "_lpt1"]) {
      assert.ok(listed.includes(`${stem}.csv`), `${stem}.csv in ${listed}`);
      assert.ok(listed.includes(`${stem}.parquet`));
    }
    assert.ok(listed.every((name) => !isWindowsDevice(name)), listed.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeDataset: a partition value too long for a folder is a clear error, a trailing dot escaped", async () => {
  const dir = await Deno.makeTempDir();
  const schema = defineSchema<{ id: string; set: string }>([{ name: "id", type: "string" }]);
  const rows = (set: string) =>
    (async function* () {
      yield [{ id: "r1", set }];
    })();
  try {
    const error = await writeDataset(rows("データ".repeat(60)), `${dir}/long`, {
      schema,
      partitionBy: [{ name: "set", value: (r) => r.set }],
    }).catch((e) => e);
    assert.ok(error instanceof TidepoolError, `got ${error}`);
    assert.match(error.message, /folder name of \d+ bytes, past the limit of 255/);
    const summary = await writeDataset(rows("v1. "), `${dir}/dots`, {
      schema,
      partitionBy: [{ name: "set", value: (r) => r.set }],
    });
    assert.ok(summary.files[0].startsWith("set=v1%2E%20/"), summary.files[0]);
    assert.ok(Deno.statSync(`${dir}/dots/set=v1%2E%20`).isDirectory);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
