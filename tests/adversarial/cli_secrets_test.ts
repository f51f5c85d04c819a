/**
 * Attacks on `tidepool`'s promise that a key appears in no output: a
 * hostile subgraph on loopback that echoes the key it was sent in its
 * error body (whole, trimmed, or the first dozen characters), a key passed
 * in a gateway URL's path, and keys typed where a variable's name or a flag
 * belongs. Runs `runCli` in this process with its own standard output and
 * error; every 8-character part of each key is looked for in both.
 */

import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/run_cli.ts";
import type { CommandIo } from "../../lib/cli/_command.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";

interface Captured {
  code: number;
  output: string;
}

/** Runs the command line with `env` as its whole environment, capturing what it prints. */
async function capture(args: string[], env: Record<string, string> = {}): Promise<Captured> {
  let output = "";
  const io: CommandIo = {
    stdout: (bytes) => {
      output += new TextDecoder().decode(bytes);
      return Promise.resolve();
    },
    stderr: (text) => void (output += text),
    stderrIsTerminal: false,
    env: (name) => env[name],
  };
  const code = await runCli(args, io);
  return { code, output };
}

/** The 8-character parts of a key that appear in text. */
function partsShown(text: string, key: string): string[] {
  const core = key.trim();
  const shown: string[] = [];
  for (let i = 0; i + 8 <= core.length; i++) {
    if (text.includes(core.slice(i, i + 8))) shown.push(core.slice(i, i + 8));
  }
  return shown;
}

/** A subgraph that refuses every request with 401, its body made from the bearer key it got. */
function echoingSubgraph(body: (key: string) => string) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const key = (request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
    seen.push(new URL(request.url).pathname);
    if (seen.length > 50) return new Response("enough", { status: 429 });
    return new Response(body(key), { status: 401 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/subgraphs/name/a/b`,
    origin: `http://127.0.0.1:${server.addr.port}`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("tidepool: a key with spaces or a line end around it, echoed back trimmed", async (t) => {
  // Keys read from files end with a newline (a Kubernetes secret, an .env file with CRLF);
  // fetch trims a header's value, so the server sees and echoes the key without it.
  const cases: [string, string][] = [
    ["a trailing newline", "gw_trail_6a1f0c3e9b7d24\n"],
    ["a trailing CRLF", "gw_crlf_58e2b1d0a4c7f9\r\n"],
    ["leading spaces", "   gw_lead_93c7e1a0b5d284"],
  ];
  await using server = echoingSubgraph((key) => `invalid API key: ${key}`);
  for (const [what, key] of cases) {
    await t.step(what, async () => {
      const run = await capture(
        ["orders", server.url, "--api-key-env", "GRAPH_KEY", "--to", "-"],
        { GRAPH_KEY: key },
      );
      assert.equal(run.code, EXIT.http, run.output);
      assert.deepEqual(partsShown(run.output, key), [], `the key is shown: ${run.output}`);
    });
  }
});

Deno.test("tidepool: a key echoed back in part is not shown", async (t) => {
  const cases: [string, string, (key: string) => string][] = [
    ["its first 12 characters", "gw_first_4f7c2a9e81b3d6", (k) => `key ${k.slice(0, 12)}… invalid`],
    ["its last 10 characters", "gw_last_c05e1d3b9a27f4", (k) => `key …${k.slice(-10)} invalid`],
  ];
  for (const [what, key, body] of cases) {
    await t.step(what, async () => {
      await using server = echoingSubgraph(body);
      const run = await capture(
        ["orders", server.url, "--api-key-env", "GRAPH_KEY", "--to", "-"],
        { GRAPH_KEY: key },
      );
      assert.equal(run.code, EXIT.http, run.output);
      assert.deepEqual(partsShown(run.output, key), [], `part of the key is shown: ${run.output}`);
    });
  }
});

Deno.test("tidepool: a gateway key in the subgraph URL's path is refused before any request", async () => {
  await using server = echoingSubgraph(() => "no");
  // The Graph's gateway form, /api/<key>/subgraphs/...: the library knows it holds a key.
  const key = "5f3c9a1e7b2d4068a9c1e3f5b7d90a2c";
  const run = await capture(["orders", `${server.origin}/api/${key}/subgraphs/id/Qm1`]);
  assert.deepEqual(server.seen, [], "nothing is sent with a key taken from the command line");
  assert.equal(run.code, EXIT.usage, run.output);
  assert.deepEqual(partsShown(run.output, key), [], run.output);
});

Deno.test("tidepool: a key typed where a variable's name or a flag belongs is not repeated", async (t) => {
  await t.step("an upper-case key given to --api-key-env", async () => {
    // A base32 secret (as authenticator apps and some services issue) is all capitals.
    const key = "JBSWY3DPEHPK3PXPK5QWY3DPEB3W64TM";
    const run = await capture(["orders", "http://127.0.0.1:9/x", "--api-key-env", key]);
    assert.equal(run.code, EXIT.usage, run.output);
    assert.deepEqual(partsShown(run.output, key), [], run.output);
  });
  await t.step("a password glued to an unknown short flag (-pSECRET)", async () => {
    const password = "Tr0ub4dor&3-horse";
    const run = await capture(["orders", "http://127.0.0.1:9/x", `-p${password}`]);
    assert.equal(run.code, EXIT.usage, run.output);
    assert.deepEqual(partsShown(run.output, password), [], run.output);
  });
});
