/**
 * Every reader of `tidepool` given an HTTP 200 answer its protocol does not
 * allow (a body that is not JSON or not XML, JSON of another shape, a
 * GraphQL answer without the list asked for) exits 5 with one line, never
 * 0 with an empty table, 1 or 70. Runs `runCli` in this process against a
 * loopback server that answers every request with the body under test.
 */

import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/run_cli.ts";
import type { CommandIo } from "../../lib/cli/_command.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";

async function capture(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ["", ""];
  const io: CommandIo = {
    stdout: (bytes) => Promise.resolve(void (stdout += new TextDecoder().decode(bytes))),
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: false,
    env: () => undefined,
  };
  return { code: await runCli(args, io), stdout, stderr };
}

const BODIES: readonly [string, string, string][] = [
  ["HTML", "<html><body>Maintenance</body></html>", "text/html"],
  ["truncated JSON", '{"hits": [{"id": 1}', "application/json"],
  ["JSON null", "null", "application/json"],
  ["a JSON number", "12", "application/json"],
  ["a JSON list", "[]", "application/json"],
  ["another object", '{"data": {"orders": 5}, "hits": "x"}', "application/json"],
  ["an empty body", "", "application/json"],
];

Deno.test("tidepool: an answer its protocol does not allow exits 5, for every reader and body", async (t) => {
  let body = BODIES[0];
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    if (++requests > 2_000) return new Response("enough", { status: 503 });
    return new Response(body[1], { status: 200, headers: { "content-type": body[2] } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const readers = [
    ["harvest", `${origin}/oai`],
    ["resourcesync", origin, "--site", "a/b"],
    ["orders", `${origin}/subgraphs/name/a/b`],
    ["assets", origin],
    ["expressions", origin],
    ["sparql", `${origin}/api/a/dl/b/sparql`, "SELECT ?s WHERE { ?s ?p ?o }"],
  ];
  try {
    for (const current of BODIES) {
      body = current;
      for (const args of readers) {
        await t.step(`${args[0]}: ${current[0]}`, async () => {
          const run = await capture([...args, "--to", "-", "--concurrency", "1"]);
          assert.equal(run.code, EXIT.protocol, run.stderr);
          assert.equal(run.stdout, "", "no table is written");
          assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
        });
      }
    }
  } finally {
    await server.shutdown();
  }
});
