/**
 * A command line that speaks shell, run as a child process: Ctrl-C leaves
 * one line saying the run stopped and that the same command resumes it
 * (exit 130); a reader that stops early (`| head`) ends the command quietly
 * (exit 141, nothing on standard error); `--format tsv` writes one line per
 * row; `--list-separator` writes list cells as their items joined.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { runTidepool, spawnTidepool } from "./_run_cli.ts";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return (await Array.fromAsync(stream.pipeThrough(new TextDecoderStream()))).join("");
}

Deno.test("tidepool: Ctrl-C leaves one line saying the same command resumes, exit 130", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-sigint-" });
  // A server that holds every request: the child is mid-run when it is signalled.
  let asked = Promise.withResolvers<void>();
  const held = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    asked.resolve();
    await held.promise;
    return new Response("", { status: 503 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (
      const [args, next] of [
        [["harvest", `${origin}/oai`, "--to", "letters.csv"], /continues where this run stopped/],
        [["expressions", origin, "--to", "e.csv"], /runs again from the start/],
      ] as const
    ) {
      await t.step(args[0], async () => {
        asked = Promise.withResolvers<void>();
        const child = spawnTidepool([...args], dir);
        const stderr = text(child.stderr);
        const stdout = text(child.stdout);
        await asked.promise; // the event: the run has sent its first request
        child.kill("SIGINT");
        const status = await child.status;
        const [err, out] = await Promise.all([stderr, stdout]);
        assert.equal(status.code, 130, err);
        assert.equal(out, "");
        const lines = err.split("\n").filter((line) => line !== "");
        assert.equal(lines.length, 1, err);
        assert.match(
          lines[0],
          new RegExp(
            `^tidepool ${args[0]}: Stopped \\(Ctrl-C\\)\\. Run the same command to resume`,
          ),
        );
        assert.match(lines[0], next);
      });
    }
  } finally {
    held.resolve();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: a reader that stops early ends the command quietly, exit 141", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-pipe-" });
  try {
    for (
      const args of [
        ["resourcesync", sandbox.urls.archive, "--site", "shinano/letters"],
        ["resourcesync", sandbox.urls.archive, "--site", "shinano/letters", "--format", "ndjson"],
      ]
    ) {
      const child = spawnTidepool(args, dir);
      const stderr = text(child.stderr);
      const reader = child.stdout.getReader();
      const first = await reader.read(); // as head: one chunk, then the pipe is closed
      assert.ok(first.value && first.value.length > 0);
      await reader.cancel();
      const status = await child.status;
      const said = await stderr;
      assert.equal(said, "", `nothing on standard error: ${said}`);
      assert.equal(status.code, 141);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: --format tsv and --list-separator, to standard output and to a file", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-tsv-" });
  const expressions = ["expressions", sandbox.urls.expressions, "--pid", "990000101"];
  try {
    const tsv = await runTidepool([...expressions, "--format", "tsv"], { cwd: dir });
    assert.equal(tsv.code, 0, tsv.stderr);
    const lines = tsv.stdout.trimEnd().split("\n");
    const columns = lines[0].split("\t");
    assert.ok(columns.includes("pages"), lines[0]);
    assert.equal(lines.length, 240, "one line per row and the header");
    for (const line of lines) assert.equal(line.split("\t").length, columns.length, line);

    const joined = await runTidepool([...expressions, "--to", "e.tsv", "--list-separator", " | "], {
      cwd: dir,
    });
    assert.equal(joined.code, 0, joined.stderr);
    const pages = (await Deno.readTextFile(`${dir}/e.tsv`)).trimEnd().split("\n").slice(1)
      .map((line) => line.split("\t")[columns.indexOf("pages")]);
    assert.ok(pages.every((cell) => !cell.startsWith("[")), pages.slice(0, 3).join(", "));
    assert.ok(pages.some((cell) => cell.includes(" | ")), "some list has two items or more");
    assert.equal((await readTable(`${dir}/e.tsv`)).numRows(), 239);

    const csv = await runTidepool([...expressions, "--list-separator", "; "], { cwd: dir });
    assert.equal(csv.code, 0, csv.stderr);
    assert.doesNotMatch(csv.stdout, /"\[/, "no list cell as JSON text");

    const refused = await runTidepool([
      ...expressions,
      "--to",
      "e.parquet",
      "--list-separator",
      ";",
    ], {
      cwd: dir,
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--list-separator is for CSV and TSV, not parquet/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
