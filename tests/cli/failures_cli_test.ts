/**
 * What a shell user relies on, checked on `tidepool` run as a child process:
 * an exit code for each kind of failure, each failure one line; standard
 * output holding only data; a key from the environment never shown in any
 * output, cache file or output file; a key on the command line refused
 * without being repeated; --help; --quiet; --record and --replay.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/seed.ts";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { COMMANDS } from "../../lib/cli/run_cli.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { type CliRun, closedPort, csvLines, filesBelow, runTidepool } from "./_run_cli.ts";

/** A failed run: its code, and one line on standard error with no stack frame. */
function assertFailure(run: CliRun, code: number, pattern: RegExp): void {
  assert.equal(run.code, code, `exit ${run.code}, not ${code}: ${run.stderr}`);
  assert.equal(run.stdout, "", "a failure writes no data");
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line, not:\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
  assert.match(lines[0], pattern);
}

/** A loopback GraphQL server that answers every query with HTTP 200 and an `errors` array. */
function graphqlErrorServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ errors: [{ message: "Store error: the database is on fire" }] }),
  );
}

Deno.test("tidepool: exit codes differ for usage, network, HTTP and protocol errors", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-fail-" });
  const run = (args: string[]) => runTidepool(args, { cwd: dir });
  const oai = `${sandbox.urls.archive}/shinano/letters/api/oai`;
  const hostile = graphqlErrorServer();
  try {
    await t.step(
      "usage: a bad flag, a missing argument, a bad value, an unknown command",
      async () => {
        assertFailure(
          await run(["orders", sandbox.urls.subgraph, "--datatokn", "0x00"]),
          EXIT.usage,
          /Unknown option --datatokn for tidepool orders; did you mean --datatoken\?/,
        );
        assertFailure(await run(["assets"]), EXIT.usage, /takes 1 argument, not 0/);
        // harvest takes its repository as an argument or its list of them as --sources.
        assertFailure(
          await run(["harvest"]),
          EXIT.usage,
          /takes a repository URL, or --sources FILE/,
        );
        assertFailure(
          await run(["harvest", oai, "--to", "x.xlsx"]),
          EXIT.usage,
          /Cannot tell the format of x\.xlsx/,
        );
        assertFailure(await run(["harvest", oai, "--from", "yesterday"]), EXIT.usage, /yesterday/);
        assertFailure(
          await run(["orders", sandbox.urls.subgraph, "--block", "-3"]),
          EXIT.usage,
          /--block/,
        );
        assertFailure(await run(["harvst", oai]), EXIT.usage, /did you mean harvest\?/);
        // Values the service's own vocabulary refuses, after the request that read it.
        assertFailure(
          await run(["expressions", sandbox.urls.expressions, "--emotion", "歓"]),
          EXIT.usage,
          /emotion "歓" is not one of the service's emotion categories/,
        );
        assertFailure(
          await run(["expressions", sandbox.urls.expressions, "--body-part", "尻尾"]),
          EXIT.usage,
          /bodyPart "尻尾" is not one of the service's body parts/,
        );
        assertFailure(
          await run(["resourcesync", sandbox.urls.archive, "--site", "shinano/lettres"]),
          EXIT.usage,
          /ResourceSync is not offered for shinano\/lettres/,
        );
        assertFailure(
          await run(["assets", sandbox.urls.ocean, "--record", "a", "--replay", "b"]),
          EXIT.usage,
          /--record or --replay, not both/,
        );
      },
    );

    await t.step("network: a closed loopback port, for every kind of service", async () => {
      const closed = closedPort();
      for (
        const args of [
          ["harvest", `${closed}/oai`],
          ["orders", `${closed}/subgraphs/name/a/b`],
          ["assets", closed],
          ["expressions", closed],
          ["sparql", `${closed}/api/a/dl/b/sparql`, "ASK { ?s ?p ?o }"],
        ]
      ) {
        assertFailure(await run([...args, "--to", "out.csv"]), EXIT.network, /Cannot reach/);
      }
    });

    await t.step("HTTP: the service answers an error status", async () => {
      assertFailure(
        await run(["sparql", `${sandbox.urls.archive}/api/shinano/dl/lettres/sparql`, "ASK {}"]),
        EXIT.http,
        /Database not found: shinano\/lettres/,
      );
      assertFailure(
        await run(["harvest", `${sandbox.urls.archive}/shinano/nowhere/api/oai`]),
        EXIT.http,
        /^tidepool harvest: /,
      );
    });

    await t.step("protocol: an OAI-PMH error element, GraphQL errors with HTTP 200", async () => {
      assertFailure(
        await run(["harvest", oai, "--prefix", "nope"]),
        EXIT.protocol,
        /cannotDisseminateFormat/,
      );
      const url = `http://127.0.0.1:${hostile.addr.port}/subgraphs/name/a/b`;
      assertFailure(await run(["orders", url, "--to", "o.csv"]), EXIT.protocol, /on fire/);
    });
  } finally {
    await hostile.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: standard output holds only data when piped; --quiet says nothing", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-pipe-" });
  try {
    const expected = await new Subgraph(sandbox.urls.subgraph, { progress: false })
      .orders({ fields: ["id"] });
    const csv = await runTidepool(["orders", sandbox.urls.subgraph, "--to", "-"], { cwd: dir });
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csvLines(csv.stdout);
    assert.match(lines[0], /^id,tx,createdAt,/);
    assert.equal(lines.length, expected.numRows() + 1);
    assert.match(csv.stderr, /^orders: 12,000 rows at block \d+ to standard output\n$/);
    const ndjson = await runTidepool(
      ["assets", sandbox.urls.ocean, "--format", "ndjson", "--quiet"],
      { cwd: dir },
    );
    assert.equal(ndjson.code, 0, ndjson.stderr);
    assert.equal(ndjson.stderr, "", "--quiet: nothing on standard error");
    const records = ndjson.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.ok(records.length > 1000 && records.every((r) => typeof r.did === "string"));
    assert.equal(await Array.fromAsync(Deno.readDir(dir)).then((e) => e.length), 0, "no file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: a key from the environment appears in no output, cache or file", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-keys-" });
  const gateway = "gw-Very-Secret-Gateway-Key-0123456789";
  const wrong = "tpk_shinano_r.sk-Wrong0Secret1Value2";
  const env = { GATEWAY_KEY: gateway, ARCHIVE_KEY: SANDBOX_KEYS.shinanoRead, WRONG_KEY: wrong };
  const secrets = [
    gateway,
    SANDBOX_KEYS.shinanoRead,
    SANDBOX_KEYS.shinanoRead.split(".")[1],
    wrong,
  ];
  const outputs: string[] = [];
  const run = async (args: string[]) => {
    const result = await runTidepool(args, { cwd: dir, env });
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  try {
    const orders = await run([
      "orders",
      sandbox.urls.subgraph,
      "--api-key-env",
      "GATEWAY_KEY",
      "--record",
      "recording",
      "--to",
      "orders.csv",
    ]);
    assert.equal(orders.code, 0, orders.stderr);
    const endpoint = (db: string) => `${sandbox.urls.archive}/api/shinano/dl/${db}/sparql`;
    const read = await run([
      "sparql",
      endpoint("letters"),
      "SELECT ?s WHERE { ?s ?p ?o } LIMIT 5",
      "--api-key-env",
      "ARCHIVE_KEY",
      "--record",
      "recording",
      "--to",
      "-",
    ]);
    assert.equal(read.code, 0, read.stderr);
    const refused = await run([
      "sparql",
      endpoint("notes"),
      "ASK {}",
      "--api-key-env",
      "WRONG_KEY",
    ]);
    assert.notEqual(refused.code, 0);
    assert.equal(refused.stderr.trim().split("\n").length, 1);
    const files = await filesBelow(dir);
    assert.ok(files.some((file) => file.includes("/recording/")), "the recording was written");
    for (const file of files) outputs.push(await Deno.readTextFile(file));
    for (const secret of secrets) {
      assert.ok(
        outputs.every((text) => !text.includes(secret)),
        `a key appears in an output or a file (${files.length} files checked)`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: a key on the command line is refused and never repeated", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-argv-" });
  const key = "ab".repeat(32);
  const url = "http://127.0.0.1:9/subgraphs/name/a/b";
  try {
    for (
      const args of [
        ["orders", url, `--api-key=${key}`],
        ["orders", url, "--private-key", key],
        ["orders", url, "--datatoken", `0x${key}`],
        ["harvest", `http://127.0.0.1:9/oai?apikey=${key}`],
        ["harvest", `http://reader:${key}@127.0.0.1:9/oai`],
        ["orders", url, "--api-key-env", `sk-live-${key}`],
      ]
    ) {
      const run = await runTidepool(args, { cwd: dir });
      assertFailure(run, EXIT.usage, /Refused/);
      assert.ok(!run.stderr.includes(key), `the key is repeated: ${run.stderr}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: --help for the command and every subcommand, each with an example", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-help-" });
  try {
    const top = await runTidepool(["--help"], { cwd: dir });
    assert.equal(top.code, 0);
    for (const command of COMMANDS) assert.match(top.stdout, new RegExp(`\\n  ${command.name} `));
    for (const code of Object.values(EXIT)) assert.match(top.stdout, new RegExp(`\\n  ${code} `));
    for (const command of COMMANDS) {
      const help = await runTidepool([command.name, "--help"], { cwd: dir });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`Usage: tidepool ${command.name}`));
      assert.match(help.stdout, /\nExamples?:\n {2}tidepool /);
    }
    const none = await runTidepool([], { cwd: dir });
    assert.equal(none.code, EXIT.usage);
    assert.match(none.stderr, /Usage: tidepool <command>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: --record then --replay gives the same table; a request never recorded is code 6", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-replay-" });
  try {
    const args = ["assets", sandbox.urls.ocean, "--tag", "weather"];
    const recorded = await runTidepool([...args, "--record", "rec", "--to", "a.parquet"], {
      cwd: dir,
    });
    assert.equal(recorded.code, 0, recorded.stderr);
    await sandbox.ocean.close(); // nothing answers from here on
    const replayed = await runTidepool([...args, "--replay", "rec", "--to", "b.parquet"], {
      cwd: dir,
    });
    assert.equal(replayed.code, 0, replayed.stderr);
    const [a, b] = [await readTable(`${dir}/a.parquet`), await readTable(`${dir}/b.parquet`)];
    assert.deepEqual(b.array("did"), a.array("did"));
    assert.ok(a.numRows() > 0);
    const missing = await runTidepool(
      ["assets", sandbox.urls.ocean, "--tag", "never-recorded", "--replay", "rec"],
      { cwd: dir },
    );
    assertFailure(missing, EXIT.notRecorded, /^tidepool assets: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
