/** saveTable creates the folders a path names, and a path it cannot write to is an error that says what to do. */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveTable } from "../../lib/files/save_table.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { attachProvenance } from "../../lib/table/provenance.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const fromCall = {
  service: "http://127.0.0.1:1",
  operation: "Demo.rows",
  params: {},
  tidepoolVersion: "0.0.0",
  startedAt: "2026-01-01T00:00:00.000Z",
  endedAt: "2026-01-01T00:00:01.000Z",
  asOf: {},
  cacheKeys: [],
};

Deno.test("saveTable: missing parent folders are created, for the table and its sidecar", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = attachProvenance(aq.table({ n: [1, 2] }), fromCall);
    await saveTable(`${dir}/out/deeper/x.csv`, table);
    assert.equal(await Deno.readTextFile(`${dir}/out/deeper/x.csv`), "n\n1\n2\n");
    const sidecar = JSON.parse(await Deno.readTextFile(`${dir}/out/deeper/x.csv.provenance.json`));
    assert.equal(sidecar.operation, "Demo.rows");
    await saveTable(`${dir}/other/x.parquet`, table);
    assert.deepEqual((await readTable(`${dir}/other/x.parquet`)).array("n"), [1, 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveTable: a relative path's folders are created under the current folder", async () => {
  const dir = await Deno.makeTempDir();
  const before = Deno.cwd();
  try {
    Deno.chdir(dir);
    await saveTable("out/x.json", aq.table({ n: [1] }));
    assert.deepEqual((await readTable(`${dir}/out/x.json`)).array("n"), [1]);
  } finally {
    Deno.chdir(before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveTable: a path through a file says so and what to do", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/out`, "a file, not a folder");
    const error = await saveTable(`${dir}/out/x.csv`, aq.table({ n: [1] })).then(
      () => assert.fail("the save should fail"),
      (error) => error,
    );
    assert.ok(error instanceof TidepoolError, String(error));
    assert.equal(
      error.shortMessage,
      `Cannot save the table to ${dir}/out/x.csv: a part of the path is a file, not a folder`,
    );
    assert.match(error.hint ?? "", /folder you can write to/);
    assert.equal(await Deno.readTextFile(`${dir}/out`), "a file, not a folder");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveTable: without write permission the error names --allow-write", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/save.ts`;
    await Deno.writeTextFile(
      script,
      `import * as aq from "arquero";
      import { saveTable } from "${new URL("../../lib/files/save_table.ts", import.meta.url)}";
      try { await saveTable(${JSON.stringify(`${dir}/out/x.csv`)}, aq.table({ n: [1] })); }
      catch (error) { console.log(error.message); }`,
    );
    const config = new URL("../../deno.json", import.meta.url).pathname;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--frozen", "--no-prompt", "--allow-read", "--config", config, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert.match(
      text,
      new RegExp(`Cannot save the table to ${dir}/out/x.csv: Deno may not write there`),
    );
    assert.match(text, /What to do: Run Deno with --allow-write/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
