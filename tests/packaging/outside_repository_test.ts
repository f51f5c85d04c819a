/**
 * The README's "Use tidepool in your own project" recipe, followed to the letter in a
 * temporary folder outside this repository: a Deno workspace whose members are a copy
 * of this checkout and the user's own folder, which imports tidepool by package name.
 * A script and a notebook from that folder run against the sandbox.
 */

import assert from "node:assert/strict";
import { codeCell, jupyterAvailable } from "../_child_runs.ts";
import { copyCheckout, run } from "../_checkout.ts";

const repository = new URL("../../", import.meta.url).pathname;

const SCRIPT = `import { OceanNode } from "@tidepool/tidepool";
import { startSandbox } from "@tidepool/tidepool/sandbox";
import { document } from "@tidepool/tidepool/plot";
import * as aq from "arquero";
import * as Plot from "@observablehq/plot";

await using sandbox = await startSandbox();
const node = new OceanNode(sandbox.urls.ocean);
const assets = await node.searchAssets({ type: "dataset" });
console.log(\`datasets: \${assets.numRows()}\`);
const counts = aq.table({ kind: ["a", "b"], n: [2, 1] });
const chart = Plot.plot({ marks: [Plot.barY(counts, { x: "kind", y: "n" })], document });
console.log(\`chart: \${chart.tagName.toLowerCase()}\`);
`;

/** The imports the guide tells a user's folder to add: tidepool's own pins of Arquero and Plot. */
async function userImports(checkout: string): Promise<Record<string, string>> {
  const { imports } = JSON.parse(await Deno.readTextFile(`${checkout}/deno.json`));
  return { arquero: imports.arquero, "@observablehq/plot": imports["@observablehq/plot"] };
}

const NOTEBOOK = {
  cells: [codeCell([
    'import { ExpressionSearch } from "@tidepool/tidepool";\n',
    'import { display } from "@tidepool/tidepool/notebook";\n',
    'import { startSandbox } from "@tidepool/tidepool/sandbox";\n',
    "\n",
    "const sandbox = await startSandbox();\n",
    "const books = await new ExpressionSearch(sandbox.urls.expressions).books();\n",
    "await display(books);\n",
    "await sandbox.close();\n",
  ])],
  metadata: { kernelspec: { display_name: "Deno", language: "typescript", name: "deno" } },
  nbformat: 4,
  nbformat_minor: 5,
};

Deno.test("a workspace outside the repository imports tidepool by package name", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-workspace-" });
  try {
    await copyCheckout(`${root}/tidepool`);
    await Deno.mkdir(`${root}/analysis`);
    await Deno.writeTextFile(
      `${root}/deno.json`,
      JSON.stringify({ workspace: ["./tidepool", "./analysis"] }, null, 2),
    );
    // tidepool's lock carries its pins (flechette 2.6.0 among them) into the workspace.
    await Deno.copyFile(`${root}/tidepool/deno.lock`, `${root}/deno.lock`);
    // The README's examples import arquero and Plot by name: the user's folder adds them.
    await Deno.writeTextFile(
      `${root}/analysis/deno.json`,
      JSON.stringify({ imports: await userImports(`${root}/tidepool`) }, null, 2),
    );
    await Deno.writeTextFile(`${root}/analysis/count_datasets.ts`, SCRIPT);

    await t.step("a script runs with deno run", () => {
      const result = run("deno", ["run", "-A", "count_datasets.ts"], `${root}/analysis`);
      assert.equal(result.code, 0, result.stderr.slice(-2000));
      const count = Number(/datasets: (\d+)/.exec(result.stdout)?.[1]);
      assert.ok(count > 0, `no datasets counted: ${result.stdout}`);
      assert.match(result.stdout, /chart: svg/);
    });

    await t.step({
      name: "a notebook runs in the Deno kernel",
      ignore: !jupyterAvailable() && Deno.env.get("CI") !== "true",
      fn: async () => {
        await Deno.writeTextFile(`${root}/analysis/books.ipynb`, JSON.stringify(NOTEBOOK));
        const result = run("jupyter", [
          "nbconvert",
          "--to",
          "notebook",
          "--execute",
          "--inplace",
          "--ExecutePreprocessor.kernel_name=deno",
          "--ExecutePreprocessor.timeout=120",
          "books.ipynb",
        ], `${root}/analysis`);
        assert.equal(result.code, 0, result.stderr.slice(-2000));
        const executed = JSON.parse(await Deno.readTextFile(`${root}/analysis/books.ipynb`));
        const outputs = executed.cells[0].outputs as { output_type: string; data?: object }[];
        assert.deepEqual(outputs.filter((o) => o.output_type === "error"), []);
        assert.ok(outputs.some((o) => o.data && "text/html" in o.data), "no table was displayed");
      },
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("README examples import tidepool by package name, never by a path", async () => {
  const readme = await Deno.readTextFile(`${repository}README.md`);
  const blocks = [...readme.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1]);
  const specifiers = blocks.flatMap((block) =>
    [...block.matchAll(/\bfrom\s+"([^"]+)"/g)].map((m) => m[1])
  );
  assert.ok(specifiers.some((specifier) => specifier === "@tidepool/tidepool"));
  assert.deepEqual(specifiers.filter((specifier) => /^\.{1,2}\/|^tidepool\//.test(specifier)), []);
});
