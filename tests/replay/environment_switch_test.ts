/**
 * One switch records a whole script: clients built with no `cache` option
 * (as a new user writes them) record under `TIDEPOOL_CACHE_MODE=record` and
 * replay under `TIDEPOOL_CACHE_MODE=replay` with the network denied, to the
 * same table digests. A call the recording lacks is a replay miss naming the
 * cache folder, never a network error.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { startAnvil } from "../../lib/sandbox/chain/mod.ts";

const root = new URL("../../", import.meta.url);

/** The script a user writes: every client built plainly, every table's digest printed. */
const SCRIPT = `
import {
  chainOrders, ExpressionSearch, OaiPmh, OceanNode, Subgraph, tableDigest,
} from "${new URL("mod.ts", root)}";
const env = (name: string) => Deno.env.get(name)!;
const tables = {
  orders: await new Subgraph(env("T_SUBGRAPH")).orders(),
  expressions: await new ExpressionSearch(env("T_EXPRESSIONS")).searchAll({ emotion: "喜" }),
  assets: await new OceanNode(env("T_OCEAN")).searchAssets({}),
  records: await new OaiPmh(env("T_OAI")).harvest(),
  chain: await chainOrders({ rpcUrl: env("T_RPC") }),
};
if (env("T_EXTRA") === "yes") await new Subgraph(env("T_SUBGRAPH")).tokens({});
const digests = Object.fromEntries(
  await Promise.all(Object.entries(tables).map(async ([name, table]) =>
    [name, { rows: table.numRows(), digest: await tableDigest(table) }]
  )),
);
console.log(JSON.stringify(digests));
`;

async function runScript(
  path: string,
  env: Record<string, string>,
  permissions: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...permissions,
      "--frozen",
      `--config=${new URL("deno.json", root).pathname}`,
      path,
    ],
    cwd: root.pathname,
    env: childEnvironment(env),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

Deno.test("clients without a cache option record under the environment switch and replay offline", async () => {
  const dir = await Deno.makeTempDir();
  const script = `${dir}/script.ts`;
  await Deno.writeTextFile(script, SCRIPT);
  const cacheDir = `${dir}/recording`;
  const subgraph = serveSubgraph();
  const expressions = startExpressionSandbox({ size: 300 });
  const ocean = startOceanSandbox();
  const oai = startOaiSandbox({ pageSize: 25 });
  const chain = await startAnvil();
  let services: Record<string, string> = {};
  let recorded = "";
  try {
    services = {
      T_SUBGRAPH: subgraph.endpoint,
      T_EXPRESSIONS: expressions.url,
      T_OCEAN: ocean.url,
      T_OAI: `${oai.url}/acme/letters/api/oai`,
      T_RPC: chain.rpcUrl,
    };
    const run = await runScript(
      script,
      { ...services, TIDEPOOL_CACHE_MODE: "record", TIDEPOOL_CACHE_DIR: cacheDir },
      ["-A"],
    );
    assert.equal(run.code, 0, run.stderr);
    recorded = run.stdout.trim();
  } finally {
    await chain.close();
    await oai.close();
    await ocean.close();
    await expressions.close();
    await subgraph.close();
  }
  const tables = JSON.parse(recorded) as Record<string, { rows: number; digest: string }>;
  assert.ok(tables.orders.rows > 0 && tables.expressions.rows > 0, recorded);
  assert.ok(tables.assets.rows > 0 && tables.records.rows > 0, recorded);

  // Every service is stopped, and the replay may not use the network at all.
  const offline = ["--allow-read", "--allow-write", "--allow-env", "--deny-net"];
  const replay = { ...services, TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: cacheDir };
  const replayed = await runScript(script, replay, offline);
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.deepEqual(JSON.parse(replayed.stdout.trim()), tables);

  const missing = await runScript(script, { ...replay, T_EXTRA: "yes" }, offline);
  assert.notEqual(missing.code, 0);
  assert.match(
    missing.stderr,
    /CacheMissError: Request is not in the replay cache at .*: POST .*\(sent by Subgraph\.tokens\)/,
  );
  assert.ok(missing.stderr.includes(cacheDir), missing.stderr);
  assert.doesNotMatch(missing.stderr, /Cannot reach the service|NotCapable|net access/);
  await Deno.remove(dir, { recursive: true });
});
