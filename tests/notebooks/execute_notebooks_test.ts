/**
 * Executes every notebook in `notebooks/` in the real Deno Jupyter kernel
 * and checks its outputs: no error output, the rich outputs the notebook
 * promises in its metadata (`tidepool.expects`), and no secret anywhere.
 *
 * The run records (TIDEPOOL_CACHE_MODE=record). Then the notebook runs
 * again in replay mode with the sandbox stopped and the kernel's network
 * revoked (the kernel takes no permission flags, so a first cell calls
 * `Deno.permissions.revokeSync({ name: "net" })`; any request or server
 * after it fails the run), and every table it displays must have the
 * digest the recording displayed in the same cell (names, types, values).
 * Cells whose tables come from signed requests, never recorded, are listed
 * in {@linkcode SIGNED_CELLS}: in replay they show nothing, and must have.
 * `buying-data.ipynb` is not replayed at all (see {@linkcode NOT_REPLAYED}).
 * Every replayed notebook saves a bundle, which `reproduceBundle` re-runs
 * from the recording (offline, in a scratch copy) to the same table digests.
 * A pair of runs where one lost a cell's output (a kernel race, see
 * {@linkcode droppedCells}), or showed none of a promised output type,
 * runs again, at most twice; the last pair must show everything.
 *
 * Without Jupyter these tests say so loudly and are skipped; with CI=true a
 * missing Jupyter is a failure.
 */

import assert from "node:assert/strict";
import { TABLE_DIGEST_MIME } from "../../lib/notebook/mod.ts";
import type { TableDigest } from "../../lib/table/mod.ts";
import { cacheEnvironment } from "../replay/_replay.ts";
import { codeCell, executeNotebook, jupyterAvailable } from "../_child_runs.ts";
import { reproduceBundle } from "../../lib/bundle/reproduce_bundle.ts";

const root = new URL("../../", import.meta.url).pathname;
const notebooksDir = `${root}notebooks`;
const INSTALL =
  "apt-get install -y jupyter-nbconvert python3-nbclient jupyter-client && deno jupyter --install";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}

interface Notebook {
  cells: {
    cell_type: string;
    source: string | string[];
    outputs?: Output[];
    metadata?: Record<string, unknown>;
    execution_count?: number | null;
  }[];
  metadata: { kernelspec?: { name?: string }; tidepool?: { expects?: string[] } };
}

const available = jupyterAvailable();
if (!available) {
  const message =
    `Jupyter is not installed: the notebook tests cannot run. Install it with: ${INSTALL}`;
  if (Deno.env.get("CI") === "true") {
    Deno.test("Jupyter is installed on CI", () => assert.fail(message));
  } else {
    console.warn(`\n*** ${message} ***\n`);
  }
}

const notebooks = [...Deno.readDirSync(notebooksDir)]
  .filter((entry) => entry.isFile && entry.name.endsWith(".ipynb") && !entry.name.startsWith("_"))
  .map((entry) => entry.name)
  .sort();

Deno.test("the six notebook stories are present", () => {
  assert.deepEqual(notebooks, [
    "archive-linked-data.ipynb",
    "buying-data.ipynb",
    "compute-to-data.ipynb",
    "expressions.ipynb",
    "ocean-assets.ipynb",
    "subgraph-orders.ipynb",
  ]);
});

// Users cannot write `../lib/...`: notebooks import the way a user's own notebook will.
Deno.test("notebooks import tidepool by package name, never by a path into the repository", () => {
  for (const name of notebooks) {
    const notebook: Notebook = JSON.parse(Deno.readTextFileSync(`${notebooksDir}/${name}`));
    const sources = notebook.cells
      .filter((cell) => cell.cell_type === "code")
      .map((cell) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source));
    const specifiers = sources.flatMap((source) =>
      [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) =>
        m[1] ?? m[2]
      )
    );
    assert.ok(specifiers.length > 0, `${name} imports nothing`);
    const relative = specifiers.filter((specifier) => /^\.{1,2}\//.test(specifier));
    assert.deepEqual(relative, [], `${name} imports by relative path`);
  }
});

const text = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join("") : value ?? "";

/**
 * Cells (by index) whose tables come from signed requests: a compute job
 * started, followed and downloaded with a signature. Signed requests are
 * never recorded, so a replay skips them (`computePlan` says why in one
 * line) and these cells display no table.
 */
const SIGNED_CELLS: Record<string, number[]> = {
  "compute-to-data.ipynb": [7, 9, 10],
};

/**
 * Notebooks with nothing to replay: every table of `buying-data.ipynb`
 * comes from transactions a new wallet sends on a chain the notebook starts
 * itself (orders, downloads, a paid job), or from reads of what those
 * transactions did; none of it may be stored, so it only runs live.
 */
const NOT_REPLAYED = new Set(["buying-data.ipynb"]);

/** The first cell of a replay run: no network for the rest of the kernel's life. */
const REVOKE_NET = [
  "// Added by the replay test: the kernel takes no --deny-net, so network access is revoked here.",
  'Deno.permissions.revokeSync({ name: "net" });',
  'if (Deno.permissions.querySync({ name: "net" }).state === "granted") throw new Error("net still granted");',
].join("\n");

/** Executes a notebook as the tests run them all (five minutes a cell at most). */
function execute(
  path: string,
  outDir: string,
  environment: Record<string, string>,
): Promise<Notebook> {
  return executeNotebook<Notebook>(path, { outDir, environment, timeoutSeconds: 300 });
}

/**
 * Checks the outputs and returns the promised MIME types none of them has;
 * `expects` false leaves those out (a replay that skips a plot). A missing
 * one is the kernel race {@linkcode droppedCells} describes when another
 * run shows it, so the caller decides after a run again.
 */
function checkOutputs(name: string, executed: Notebook, expects = true): string[] {
  const outputs = executed.cells.flatMap((cell) => cell.outputs ?? []);
  const errors = outputs.filter((o) => o.output_type === "error");
  assert.deepEqual(
    errors.map((o) => `${o.ename}: ${o.evalue}`),
    [],
    `${name} has error outputs`,
  );
  const mimes = new Set(outputs.flatMap((o) => Object.keys(o.data ?? {})));
  const missing = (expects ? executed.metadata.tidepool?.expects ?? [] : [])
    .filter((expected) => !mimes.has(expected));
  const all = JSON.stringify(outputs);
  assert.doesNotMatch(all, /0x[0-9a-fA-F]{130}/, "a signature appears in the outputs");
  assert.doesNotMatch(
    all,
    /Bearer [A-Za-z0-9._-]{8,}/,
    "a bearer token appears in the outputs",
  );
  for (const output of outputs) {
    if (output.output_type === "stream" && output.name === "stderr") {
      assert.doesNotMatch(text(output.text), /Uncaught|error:/i, `${name} wrote an error`);
    }
  }
  return missing;
}

/** Fails for promised MIME types a run did not show. */
function assertNoneMissing(name: string, missing: string[]): void {
  for (const expected of missing) assert.fail(`${name} has no ${expected} output`);
}

/** The digests of the tables each cell displayed, in order. */
function tableDigests(notebook: Notebook): TableDigest[][] {
  return notebook.cells.map((cell) =>
    (cell.outputs ?? []).flatMap((output) => {
      const value = output.data?.[TABLE_DIGEST_MIME];
      if (value === undefined) return [];
      const json = typeof value === "string" || Array.isArray(value)
        ? JSON.parse(text(value))
        : value;
      return [json as TableDigest];
    })
  );
}

/** The notebook with {@linkcode REVOKE_NET} as its first cell. */
function offlineCopy(notebook: Notebook): Notebook {
  return { ...notebook, cells: [codeCell(REVOKE_NET), ...notebook.cells] };
}

/**
 * Cells where one run showed tables and the other showed none: the Deno
 * kernel (2.9.6) could publish a cell's idle status before a display or the
 * result the cell sent (seen with one display in a cell, more often under
 * load), and nbclient ends the cell at its idle, so what came after is
 * dropped or lands in the next cell. tidepool now runs the kernel's event
 * loop after a cell's result (`lib/notebook/_cell_result_flush.ts`, tested
 * by `bare_values_test.ts`); a kernel that sends results another way could
 * bring it back, and no wait on the runner's side can tell a late output
 * from none, so such a pair still runs again. nbclient's own cut
 * (outputs still arriving 4 s after the reply) is closed at its source:
 * {@linkcode executeNotebook} waits as long as a cell may run and fails
 * when that runs out. A table that differs is never taken for this.
 */
function droppedCells(before: TableDigest[][], after: TableDigest[][], signed: number[]) {
  return before.flatMap((tables, cell) => {
    const lost = signed.includes(cell)
      ? tables.length === 0
      : (tables.length === 0) !== (after[cell]?.length === 0);
    return lost ? [cell] : [];
  });
}

/** Records the notebook, then replays it offline; both runs' outputs checked. */
async function recordThenReplay(name: string, outDir: string, copy: string) {
  const cache = await Deno.makeTempDir({ dir: outDir, prefix: "cache-" });
  const recorded = await execute(
    `${notebooksDir}/${name}`,
    outDir,
    cacheEnvironment("record", cache),
  );
  const missingRecorded = checkOutputs(name, recorded);
  if (NOT_REPLAYED.has(name)) {
    assertNoneMissing(name, missingRecorded);
    return undefined;
  }
  // The bundle the notebook saved reproduces from the recording, as a reviewer runs it.
  const bundle = `${notebooksDir}/out/${name.replace(/\.ipynb$/, "")}`;
  // A notebook with signed cells has tables no recording keeps: the reviewer accepts them so.
  const signedCells = (SIGNED_CELLS[name] ?? []).length > 0;
  const reproduced = await reproduceBundle(bundle, `${notebooksDir}/${name}`, {
    recording: cache,
    allowNotRecorded: signedCells,
  });
  assert.ok(reproduced.ok, `${name}: ${reproduced.summary}`);
  const source: Notebook = JSON.parse(await Deno.readTextFile(`${notebooksDir}/${name}`));
  await Deno.writeTextFile(copy, JSON.stringify(offlineCopy(source)));
  const replayed = await execute(copy, outDir, cacheEnvironment("replay", cache));
  const signed = SIGNED_CELLS[name] ?? [];
  const missing = [...missingRecorded, ...checkOutputs(name, replayed, signed.length === 0)];
  if (signed.length > 0) {
    const printed = replayed.cells.flatMap((cell) => cell.outputs ?? [])
      .filter((output) => output.output_type === "stream").map((output) => text(output.text));
    assert.ok(
      printed.some((line) => /skipped in replay: .*signed request/.test(line)),
      `${name} does not say in replay why its signed cells skip`,
    );
  }
  return {
    before: tableDigests(recorded),
    after: tableDigests(replayed).slice(1),
    signed,
    missing,
  };
}

for (const name of notebooks) {
  Deno.test({
    name: NOT_REPLAYED.has(name)
      ? `notebook ${name} runs in the Deno kernel without errors`
      : `notebook ${name} runs in the Deno kernel without errors, then replays offline to the same tables`,
    ignore: !available,
    async fn() {
      const outDir = await Deno.makeTempDir();
      // The kernel runs in notebooks/, where tidepool's deno.json is found.
      const copy = `${notebooksDir}/_replay-${crypto.randomUUID()}-${name}`;
      try {
        let runs = await recordThenReplay(name, outDir, copy);
        for (let attempt = 2; runs && attempt <= 3; attempt++) {
          const dropped = droppedCells(runs.before, runs.after, runs.signed);
          if (dropped.length === 0 && runs.missing.length === 0) break;
          console.warn(
            dropped.length
              ? `${name}: cells ${dropped.join(", ")} lost their output in one run; again`
              : `${name}: a run showed no ${runs.missing.join(", ")} output; again`,
          );
          runs = await recordThenReplay(name, outDir, copy);
        }
        if (!runs) return;
        assertNoneMissing(name, runs.missing);
        const { before, after, signed } = runs;
        let compared = 0;
        before.forEach((tables, cell) => {
          if (signed.includes(cell)) {
            assert.ok(
              tables.length > 0,
              `${name} cell ${cell} is listed as signed but showed no table`,
            );
            assert.deepEqual(after[cell], [], `${name} cell ${cell} showed a table in replay`);
            return;
          }
          assert.deepEqual(after[cell], tables, `${name} cell ${cell}: replayed tables differ`);
          compared += tables.length;
        });
        assert.ok(compared > 0, `${name}: no table compared`);
      } finally {
        await Deno.remove(copy).catch(() => {});
        await Deno.remove(outDir, { recursive: true });
      }
    },
  });
}
