/**
 * A paper that starts the sandbox itself cannot be reproduced (the
 * reviewer's re-run is confined and opens no socket), and tidepool says so
 * when it is recorded, not only when a reviewer tries: recording a script
 * that calls `startSandbox()` (or a sandbox's start function) warns once,
 * naming `openServices()`, which replays without a server; the re-run's
 * failure gives the same way out; `computePlan` on a sandbox node started
 * elsewhere names the sandbox instead of asking for a real node's variables.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { projectFolder, reproduceCommand, TIDEPOOL_MOD } from "./_paper_project.ts";
import { confinedRunHint } from "../../lib/bundle/_confined_run.ts";
import { OceanNode } from "../../mod.ts";
import {
  COMPUTE_VARIABLES,
  computePlan,
  openServices,
  SERVICE_VARIABLES,
  startOceanSandbox,
} from "../../lib/sandbox/mod.ts";

const SANDBOX_MOD = new URL("../../lib/sandbox/mod.ts", import.meta.url).href;

/** Runs `code` as the author's script in `project`; returns its exit code and stderr. */
async function runScript(
  project: string,
  code: string,
  extra: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  await Deno.writeTextFile(`${project}/paper.ts`, code);
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "paper.ts"],
    cwd: project,
    env: childEnvironment({ TIDEPOOL_CACHE_DIR: `${project}/.cache/tidepool`, ...extra }),
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: run.code, stderr: new TextDecoder().decode(run.stderr) };
}

const STARTS_SANDBOX = `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
import { startSandbox } from "${SANDBOX_MOD}";
await using sandbox = await startSandbox();
await saveBundle("out/bundle", { draft: true, tables: { n: aq.table({ url: [sandbox.urls.ocean.length] }) } });
`;

const WARNING = /cannot be reproduced.*openServices\(\)/s;

Deno.test("recording a script that calls startSandbox() warns, and its reproduce failure names openServices()", async () => {
  const project = await Deno.makeTempDir({ prefix: "tidepool-sandbox-paper-" });
  try {
    await projectFolder(project);
    const recorded = await runScript(project, STARTS_SANDBOX, { TIDEPOOL_CACHE_MODE: "record" });
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stderr, WARNING);
    assert.equal(recorded.stderr.split("openServices()").length - 1, 1, "warned once");
    const run = await reproduceCommand([
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      `${project}/.cache/tidepool`,
    ]);
    assert.notEqual(run.code, 0, run.stdout);
    assert.match(run.stderr, /Requires net access/);
    assert.match(run.stderr, /starts a local server.*openServices\(\)/s);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("only a recording that starts the sandbox itself is warned: not openServices(), not a live run", async () => {
  const project = await Deno.makeTempDir({ prefix: "tidepool-sandbox-paper-" });
  try {
    await projectFolder(project);
    const cases: [string, string, Record<string, string>, boolean][] = [
      ["startSandbox(), recording", STARTS_SANDBOX, { TIDEPOOL_CACHE_MODE: "record" }, true],
      ["startSandbox(), refreshing", STARTS_SANDBOX, { TIDEPOOL_CACHE_MODE: "refresh" }, true],
      ["startSandbox(), not recording", STARTS_SANDBOX, {}, false],
      [
        "a sandbox's start function, recording",
        `import { startExpressionSandbox } from "${SANDBOX_MOD}";
await using s = startExpressionSandbox();`,
        { TIDEPOOL_CACHE_MODE: "record" },
        true,
      ],
      [
        "openServices(), recording",
        `import { openServices } from "${SANDBOX_MOD}";
const services = await openServices();
await services.close();`,
        { TIDEPOOL_CACHE_MODE: "record" },
        false,
      ],
    ];
    for (const [what, code, environment, warned] of cases) {
      const run = await runScript(project, code, environment);
      assert.equal(run.code, 0, `${what}: ${run.stderr}`);
      assert.equal(WARNING.test(run.stderr), warned, `${what}: ${run.stderr}`);
    }
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("a re-run refused a loopback listen is told to use openServices(); other refusals are not", () => {
  for (
    const address of ["127.0.0.1:0", "127.0.0.1:8080", "localhost:8000", "0.0.0.0:80", "[::1]:0"]
  ) {
    const log = `error: Uncaught (in promise) NotCapable: Requires net access to "${address}"`;
    assert.match(confinedRunHint(log), /openServices\(\)/, address);
  }
  for (
    const log of [
      'error: Uncaught NotCapable: Requires net access to "example.org:443"',
      'error: Uncaught NotCapable: Requires run access to "git"',
    ]
  ) {
    const hint = confinedRunHint(log);
    assert.doesNotMatch(hint, /openServices/, log);
    assert.match(hint, /confined/, log);
  }
});

/** Every variable openServices and computePlan read: unset for the test, restored after. */
const VARIABLES = [
  ...Object.values(SERVICE_VARIABLES),
  ...Object.values(COMPUTE_VARIABLES),
  "TIDEPOOL_CACHE_DIR",
  "TIDEPOOL_CACHE_MODE",
];

Deno.test("computePlan on a sandbox node started outside openServices() names the sandbox", async () => {
  const saved = new Map(VARIABLES.map((name) => [name, Deno.env.get(name)]));
  const cache = await Deno.makeTempDir();
  await using node = startOceanSandbox({ count: 60 });
  for (const name of VARIABLES) Deno.env.delete(name);
  // As after pasting `tidepool sandbox`'s export lines.
  Deno.env.set("TIDEPOOL_OCEAN_NODE", node.url);
  Deno.env.set("TIDEPOOL_CACHE_DIR", cache);
  try {
    const services = await openServices();
    try {
      const plan = await computePlan(
        new OceanNode(services.urls.ocean, { retry: false }),
        services,
      );
      assert.ok("skipped" in plan);
      assert.match(plan.skipped, new RegExp(`the node at ${node.url} is tidepool's sandbox`));
      assert.match(plan.skipped, /unset TIDEPOOL_OCEAN_NODE.*openServices\(\)/);
      assert.doesNotMatch(plan.skipped, /real node/);
    } finally {
      await services.close();
    }
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
    await Deno.remove(cache, { recursive: true });
  }
});
