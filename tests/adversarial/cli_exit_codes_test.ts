/**
 * Exit codes a script relies on, under odd inputs: a `--to` in a folder
 * that does not exist yet (every other command creates it), and services
 * that answer HTTP 200 with a page their protocol does not allow (not XML,
 * not JSON), which the guide's table sends to exit 5. Runs `runCli` in this
 * process against loopback servers; outcomes from the file system.
 */

import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/run_cli.ts";
import type { CommandIo } from "../../lib/cli/_command.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { hostileOai } from "./_hostile_oai.ts";

async function capture(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const io: CommandIo = {
    stdout: () => Promise.resolve(),
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: false,
    env: () => undefined,
  };
  return { code: await runCli(args, io), stderr };
}

Deno.test("tidepool harvest --to a file in a folder that does not exist yet", async () => {
  await using oai = hostileOai([{ identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z" }]);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-newdir-" });
  try {
    const run = await capture(["harvest", oai.url, "--to", `${dir}/2026/letters.csv`]);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal((await readTable(`${dir}/2026/letters.csv`)).numRows(), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: a broken page with HTTP 200 exits 5 (protocol), for each reader", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("<html><body>Maintenance { not the answer</body></html>", { status: 200 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (
      const args of [
        ["harvest", `${origin}/oai`],
        ["orders", `${origin}/subgraphs/name/a/b`],
        ["assets", origin],
        ["sparql", `${origin}/api/a/dl/b/sparql`, "SELECT ?s WHERE { ?s ?p ?o }"],
      ]
    ) {
      await t.step(args[0], async () => {
        const run = await capture([...args, "--to", "-"]);
        assert.equal(run.code, EXIT.protocol, run.stderr);
      });
    }
  } finally {
    await server.shutdown();
  }
});
