/**
 * A harvest into a Parquet folder whose part file the user damaged or
 * replaced refuses by name (exit 2), saying what to do, and leaves the
 * folder as it was: a file cut short, a text file, an empty file, and a
 * valid Parquet file of other columns (it crashed with "Corrupt footer"
 * or a TypeError, exit 70, before).
 */

import assert from "node:assert/strict";
import { table } from "arquero";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { tableToParquet } from "../../lib/dataset/parquet.ts";
import { filesBelow, runTidepool } from "./_run_cli.ts";

Deno.test("tidepool harvest refuses a damaged part file of its Parquet folder by name", async () => {
  await using sandbox = await startSandbox();
  const oai = `${sandbox.urls.archive}/shinano/letters/api/oai`;
  const dir = await Deno.makeTempDir();
  try {
    const damages: [string, (bytes: Uint8Array) => Promise<Uint8Array>][] = [
      ["cut short", (bytes) => Promise.resolve(bytes.slice(0, Math.floor(bytes.length / 2)))],
      ["text", () => Promise.resolve(new TextEncoder().encode("my notes, not a table\n"))],
      ["empty", () => Promise.resolve(new Uint8Array())],
      ["other columns", () => tableToParquet(table({ price: [1, 2, 3] }))],
    ];
    for (const [what, damage] of damages) {
      const folder = `case-${what.replace(" ", "-")}`;
      const args = ["harvest", oai, "--to", `${folder}/`, "--partition", "none"];
      const first = await runTidepool(args, { cwd: dir });
      assert.equal(first.code, 0, first.stderr);
      const parts = (await filesBelow(`${dir}/${folder}`)).filter((f) => f.endsWith(".parquet"));
      assert.ok(parts.length > 0, "the first run wrote part files");
      const part = parts[0].slice(dir.length + 1);
      const bytes = await damage(await Deno.readFile(`${dir}/${part}`));
      await Deno.writeFile(`${dir}/${part}`, bytes);
      const run = await runTidepool(args, { cwd: dir });
      assert.equal(run.code, 2, `${what}: ${run.stderr}`);
      assert.ok(
        run.stderr.includes(part.split("/").pop()!),
        `${what} names the file: ${run.stderr}`,
      );
      assert.doesNotMatch(run.stderr, /TypeError|Unexpected error|fault of tidepool/, what);
      assert.match(
        run.stderr,
        /is not a readable Parquet file|lacks the column identifier/,
        `${what}: ${run.stderr}`,
      );
      assert.match(run.stderr, /new folder|put back|delete/i, `${what}: says what to do`);
      assert.deepEqual(await Deno.readFile(`${dir}/${part}`), bytes, `${what}: left as it was`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
