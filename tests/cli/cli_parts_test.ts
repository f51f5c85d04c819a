/**
 * The parts of the command line that need no child process: the progress
 * line, where `--to` and `--format` send a table, the keys refused on a
 * command line, and the merge of an incremental harvest into a text file.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { progressLine, RequestMeter } from "../../lib/cli/_progress_line.ts";
import { outputTarget } from "../../lib/cli/_output.ts";
import { keyFromEnvironment, refuseSecrets } from "../../lib/cli/_secrets.ts";
import { mergeRecords } from "../../lib/cli/merge_records.ts";
import { UsageError } from "../../lib/cli/exit_codes.ts";
import { tableFromColumns } from "../../lib/table/build_table.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { saveTable } from "../../lib/files/save_table.ts";
import { redact } from "../../lib/errors/redact.ts";

Deno.test("progress line: rows, the page and the requests in flight, redrawn in place", async () => {
  const written: string[] = [];
  const meter = new RequestMeter();
  const line = progressLine((text) => written.push(text), meter, 0);
  let release!: () => void;
  const answered = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    await answered;
    return new Response("ok");
  });
  try {
    const pending = meter.fetch(`http://127.0.0.1:${server.addr.port}/`);
    line.sink({
      id: "a",
      label: "OAI-PMH ListRecords",
      done: 1200,
      unit: "rows",
      detail: "page 3",
      state: "running",
    });
    assert.equal(
      written.at(-1)!,
      `\r\x1b[2KOAI-PMH ListRecords: 1,200 rows page 3 · 1 in flight · 1 requests`,
    );
    release();
    await (await pending).text();
    assert.match(written.at(-1)!, /0 in flight · 1 requests$/);
    line.clear();
    assert.equal(written.at(-1), "\r\x1b[2K");
  } finally {
    await server.shutdown();
  }
});

Deno.test("--to and --format: standard output, files by extension, folders, and refusals", async () => {
  assert.deepEqual(await outputTarget(undefined, undefined, false), {
    kind: "stdout",
    format: "csv",
  });
  assert.deepEqual(await outputTarget("-", "jsonl", false), { kind: "stdout", format: "ndjson" });
  assert.deepEqual(await outputTarget("a/b.PARQUET", undefined, false), {
    kind: "file",
    path: "a/b.PARQUET",
    format: "parquet",
  });
  assert.deepEqual(await outputTarget("records", "csv", false), {
    kind: "file",
    path: "records",
    format: "csv",
  });
  assert.deepEqual(await outputTarget("letters/", undefined, true), {
    kind: "folder",
    path: "letters",
  });
  for (
    const [to, format, folders, message] of [
      ["-", "parquet", false, /Cannot write --format parquet to standard output/],
      ["a.csv", "parquet", false, /disagrees with the extension/],
      ["a.xlsx", undefined, false, /Cannot tell the format/],
      ["a.csv", "excel", false, /Unknown --format excel/],
      ["letters/", undefined, false, /Cannot write this table to the folder/],
    ] as const
  ) {
    await assert.rejects(() => outputTarget(to, format, folders), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("keys on the command line: every shape refused, none repeated; names read from the environment", () => {
  const key = "0123456789abcdef".repeat(4);
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  for (
    const args of [
      ["--api-key", "x"],
      ["--token=abc"],
      ["-private-key", "x"],
      [key],
      [`--datatoken=0x${key}`],
      [`0x${"ab".repeat(65)}`],
      [jwt],
      ["https://h.example/oai?verb=Identify&api_key=s3cr3t-value"],
      ["https://reader:pw-value@h.example/oai"],
      ["Bearer abc.def"],
    ]
  ) {
    assert.throws(() => refuseSecrets(args), (error: Error) => {
      assert.ok(error instanceof UsageError, args.join(" "));
      // The flag's name may be said; its value, or an argument, never.
      const values = args.map((arg) => arg.startsWith("-") ? arg.split("=")[1] ?? "" : arg);
      for (const value of values) if (value.length > 3) assert.ok(!error.message.includes(value));
      return true;
    });
  }
  // What looks like an address, a DID, a date or a query passes.
  refuseSecrets([
    "--datatoken",
    `0x${"ab".repeat(20)}`,
    `did:op:${key}`,
    "2026-01-01",
    "SELECT ?s WHERE { ?s ?p ?o }",
    "https://archive.example/api/acme/dl/letters/sparql",
  ]);
  const env = (name: string) => ({ GOOD_KEY: "kept-out-of-every-output-123" })[name];
  assert.equal(
    keyFromEnvironment("--api-key-env", "GOOD_KEY", env),
    "kept-out-of-every-output-123",
  );
  assert.equal(redact("said kept-out-of-every-output-123"), "said [redacted]");
  assert.throws(() => keyFromEnvironment("--api-key-env", "MISSING", env), (error: Error) => {
    assert.match(error.message, /The environment variable that --api-key-env names is not set/);
    assert.ok(!error.message.includes("MISSING"), "the name given is not repeated");
    return true;
  });
  assert.throws(
    () => keyFromEnvironment("--api-key-env", "sk-live-abc123", env),
    (error: Error) => {
      assert.ok(!error.message.includes("sk-live-abc123"));
      return true;
    },
  );
});

Deno.test("merge: changed records replace their CSV rows in place, new ones follow, types kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const record = (id: string, day: string, titles: string[], deleted = false) => ({
      identifier: id,
      datestamp: new Date(`${day}T00:00:00Z`),
      deleted,
      "dc:title": titles,
    });
    const table = (records: ReturnType<typeof record>[]) =>
      tableFromColumns([
        { name: "identifier", type: "string", values: records.map((r) => r.identifier) },
        { name: "datestamp", type: "date", values: records.map((r) => r.datestamp) },
        { name: "deleted", type: "boolean", values: records.map((r) => r.deleted) },
        { name: "dc:title", type: "array", values: records.map((r) => r["dc:title"]) },
      ]);
    await saveTable(
      `${dir}/r.csv`,
      table([
        record("a", "2026-01-01", ["A"]),
        record("b", "2026-01-02", ["=B, with a comma"]),
        record("c", "2026-01-03", ["C"]),
      ]),
    );
    const changes = table([
      record("b", "2026-02-01", ["B2"]),
      record("d", "2026-02-02", ["D"]),
      record("c", "2026-02-03", [], true),
    ]);
    const merged = mergeRecords(await readTable(`${dir}/r.csv`), changes, "r.csv");
    assert.deepEqual(merged.array("identifier"), ["a", "b", "c", "d"]);
    assert.deepEqual(merged.array("dc:title"), [["A"], ["B2"], [], ["D"]]);
    assert.deepEqual(merged.array("deleted"), [false, false, true, false]);
    assert.ok((merged.array("datestamp") as Date[]).every((date) => date instanceof Date));
    assert.throws(
      () => mergeRecords(aq.table({ id: ["x"] }), changes, "other.csv"),
      /Cannot merge the harvest into other\.csv: it has no identifier column/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
