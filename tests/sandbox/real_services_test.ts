/**
 * A service given by a variable is used for real: a second sandbox process
 * plays the real node. openServices starts sandboxes only for the services
 * not given; against the real node the compute story takes its assets and
 * key from TIDEPOOL_COMPUTE_* and OCEAN_PRIVATE_KEY, or is skipped with one
 * line; and the sandbox wallet never reaches the real node.
 */

import assert from "node:assert/strict";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { computePlan, openServices } from "../../lib/sandbox/mod.ts";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/mod.ts";
import { childEnvironment, executeNotebook, jupyterAvailable, runDemo } from "../_child_runs.ts";

const root = new URL("../../", import.meta.url).pathname;
/** A test wallet the "real" node allowlists; never the sandbox's. */
const TEST_KEY = `0x${"4c".repeat(32)}`;
const testAddress = signerFromPrivateKey(TEST_KEY).address;
const sandboxAddress = signerFromPrivateKey(SANDBOX_WALLET_KEY).address;
const VARIABLES = [
  "TIDEPOOL_OCEAN_NODE",
  "TIDEPOOL_SUBGRAPH",
  "TIDEPOOL_EXPRESSIONS",
  "TIDEPOOL_ARCHIVE",
  "TIDEPOOL_COMPUTE_DATASET",
  "TIDEPOOL_COMPUTE_ALGORITHM",
  "TIDEPOOL_CACHE_DIR",
  "TIDEPOOL_CACHE_MODE",
  "OCEAN_PRIVATE_KEY",
];

interface RealNode {
  url: string;
  example: {
    dataset: { documentId: string; serviceId: string };
    algorithm: { documentId: string; serviceId: string };
    environment: string;
  };
}

/**
 * Runs `body` with the node process, always ended at the end.
 *
 * @returns Every request line the node printed, read to the end of its
 *   output once it exited: a line printed just before an answer may still be
 *   in the pipe when the test has the answer, so the log is checked after.
 */
async function withRealNode(body: (node: RealNode) => Promise<void>): Promise<string[]> {
  const child = new Deno.Command(Deno.execPath(), {
    // Lives until the test closes its stdin, however long a loaded machine makes the test.
    args: ["run", "-A", "--frozen", `${root}tests/sandbox/_real_node.ts`, testAddress],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const log: string[] = [];
  const { promise: readyLine, resolve: ready } = Promise.withResolvers<string>();
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      const lines = rest.split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("READY ")) ready(line);
        else log.push(line);
      }
    }
  })();
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const line = await Promise.race([
      readyLine,
      new Promise<never>((_, reject) => {
        // It starts in a second or two, several on a loaded machine; only a failed start waits this.
        timer = setTimeout(
          () => reject(new Error("The real node did not start in 120 s")),
          120_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    const [, url, example] = /^READY (\S+) (.*)$/.exec(line)!;
    await body({ url, example: JSON.parse(example) });
  } finally {
    await child.stdin.close().catch(() => {});
    child.kill("SIGTERM");
    await child.status;
    await reading;
  }
  return log;
}

/** Sets variables for the body (unsetting the rest of VARIABLES), restoring them after. */
async function withEnv(values: Record<string, string>, body: () => Promise<void>) {
  const saved = new Map(VARIABLES.map((name) => [name, Deno.env.get(name)]));
  for (const name of VARIABLES) Deno.env.delete(name);
  for (const [name, value] of Object.entries(values)) Deno.env.set(name, value);
  try {
    await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

Deno.test("openServices: a given node is used for real, sandboxes only for the rest, compute skipped in one line", async () => {
  const cache = await Deno.makeTempDir();
  try {
    const log = await withRealNode(async (real) => {
      await withEnv({ TIDEPOOL_OCEAN_NODE: real.url, TIDEPOOL_CACHE_DIR: cache }, async () => {
        const services = await openServices();
        try {
          assert.equal(services.urls.ocean, real.url);
          assert.equal(services.real.ocean, true);
          assert.equal(services.sandbox?.ocean, undefined, "no sandbox node was started");
          assert.ok(services.sandbox?.archive && services.sandbox.expressions);
          assert.equal(services.urls.archive, services.sandbox.archive.url);
          const node = new OceanNode(services.urls.ocean, { progress: false, retry: false });
          const plan = await computePlan(node, services);
          assert.ok("skipped" in plan);
          assert.equal(
            plan.skipped,
            "compute: skipped: set TIDEPOOL_COMPUTE_DATASET, TIDEPOOL_COMPUTE_ALGORITHM, OCEAN_PRIVATE_KEY to run a free job on the real node",
          );
          assert.equal((await node.searchAssets({ type: "dataset" })).numRows() > 0, true);
        } finally {
          await services.close();
        }
      });
    });
    assert.ok(log.some((l) => l.includes("/api/aquarius/assets/metadata/query")));
    for (const line of log) {
      assert.ok(!line.toLowerCase().includes(sandboxAddress.toLowerCase()), line);
    }
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("demo: against a real node the job uses TIDEPOOL_COMPUTE_* and OCEAN_PRIVATE_KEY, never the sandbox wallet", async () => {
  const out = await Deno.makeTempDir();
  try {
    const log = await withRealNode(async (real) => {
      const environment = childEnvironment({
        TIDEPOOL_OCEAN_NODE: real.url,
        TIDEPOOL_COMPUTE_DATASET: real.example.dataset.documentId,
        TIDEPOOL_COMPUTE_ALGORITHM: real.example.algorithm.documentId,
        OCEAN_PRIVATE_KEY: TEST_KEY,
        TIDEPOOL_CACHE_DIR: `${out}/cache`,
      });
      const printed = await runDemo(`${out}/demo`, environment);
      assert.match(printed, /^live services: wrote \d+ files/m);
      assert.ok(!printed.includes(TEST_KEY.slice(2)), "the key was printed");
      const files = [...Deno.readDirSync(`${out}/demo`)].map((e) => e.name);
      assert.ok(files.includes("compute_result_files.csv"), files.join(" "));
    });
    const started = log.filter((l) => l.startsWith("REQUEST POST /api/services/freeCompute"));
    assert.equal(started.length, 1);
    assert.ok(started[0].includes(testAddress), started[0]);
    for (const line of log) {
      assert.ok(!line.toLowerCase().includes(sandboxAddress.toLowerCase()), line);
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test({
  name:
    "compute notebook: against a real node without the compute variables it says why in one line",
  ignore: !jupyterAvailable(),
  async fn() {
    const out = await Deno.makeTempDir();
    try {
      const log = await withRealNode(async (real) => {
        const executed = await executeNotebook<{
          cells: { outputs?: { output_type: string; text?: string | string[] }[] }[];
        }>(`${root}notebooks/compute-to-data.ipynb`, {
          outDir: out,
          environment: childEnvironment({
            TIDEPOOL_OCEAN_NODE: real.url,
            TIDEPOOL_CACHE_DIR: `${out}/cache`,
          }),
          timeoutSeconds: 120,
        });
        const outputs = executed.cells.flatMap((cell) => cell.outputs ?? []);
        assert.deepEqual(outputs.filter((o) => o.output_type === "error"), []);
        const printed = outputs.map((o) => [o.text ?? ""].flat().join("")).join("");
        assert.match(
          printed,
          /^compute: skipped: set TIDEPOOL_COMPUTE_DATASET, TIDEPOOL_COMPUTE_ALGORITHM, OCEAN_PRIVATE_KEY to run a free job on the real node$/m,
        );
      });
      assert.ok(log.some((l) => l.includes("/api/services/computeEnvironments")));
      for (const line of log) {
        assert.ok(!line.toLowerCase().includes(sandboxAddress.toLowerCase()), line);
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
