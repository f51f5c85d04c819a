/**
 * Executes every notebook in `notebooks/` in the real Deno Jupyter kernel
 * and checks its outputs: no error output, the rich outputs the notebook
 * promises in its metadata (`tidepool.expects`), and no secret anywhere.
 *
 * Without Jupyter these tests say so loudly and are skipped; with CI=true a
 * missing Jupyter is a failure.
 */

import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url).pathname;
const notebooksDir = `${root}notebooks`;
const INSTALL =
  "apt-get install -y jupyter-nbconvert python3-nbclient jupyter-client && deno jupyter --install";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}

interface Notebook {
  cells: { cell_type: string; source: string | string[]; outputs?: Output[] }[];
  metadata: { kernelspec?: { name?: string }; tidepool?: { expects?: string[] } };
}

function jupyterAvailable(): boolean {
  try {
    const { code } = new Deno.Command("jupyter", {
      args: ["nbconvert", "--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return code === 0;
  } catch {
    return false;
  }
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

for (const name of notebooks) {
  Deno.test({
    name: `notebook ${name} runs in the Deno kernel without errors`,
    ignore: !available,
    async fn() {
      const outDir = await Deno.makeTempDir();
      try {
        const { code, stderr } = await new Deno.Command("jupyter", {
          args: [
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--ExecutePreprocessor.kernel_name=deno",
            "--ExecutePreprocessor.timeout=300",
            "--output-dir",
            outDir,
            `${notebooksDir}/${name}`,
          ],
          cwd: notebooksDir,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const log = new TextDecoder().decode(stderr);
        assert.equal(code, 0, `nbconvert failed for ${name}:\n${log.slice(-3000)}`);
        const executed: Notebook = JSON.parse(await Deno.readTextFile(`${outDir}/${name}`));
        const outputs = executed.cells.flatMap((cell) => cell.outputs ?? []);
        const errors = outputs.filter((o) => o.output_type === "error");
        assert.deepEqual(
          errors.map((o) => `${o.ename}: ${o.evalue}`),
          [],
          `${name} has error outputs`,
        );
        const mimes = new Set(outputs.flatMap((o) => Object.keys(o.data ?? {})));
        for (const expected of executed.metadata.tidepool?.expects ?? []) {
          assert.ok(mimes.has(expected), `${name} has no ${expected} output`);
        }
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
      } finally {
        await Deno.remove(outDir, { recursive: true });
      }
    },
  });
}
