/**
 * reproduceBundle on a notebook: a paper's notebook reads a service and
 * saves a bundle while recording, run in the real Deno kernel; reproduced
 * from the recording (its code cells as one confined module, in a scratch
 * copy, the service stopped), its tables have the bundle's digests.
 */

import assert from "node:assert/strict";
import { childEnvironment, codeCell, jupyterAvailable } from "../_child_runs.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { reproduceBundle } from "../../lib/bundle/reproduce_bundle.ts";
import { executeNotebookArgs } from "../../lib/bundle/_execute_notebook_args.ts";

const root = new URL("../../", import.meta.url);

/** The paper's notebook: one search, one count, one bundle. */
const notebook = (url: string) => ({
  cells: [
    codeCell(`import { ExpressionSearch, saveBundle } from "${new URL("mod.ts", root)}";
const hits = await new ExpressionSearch("${url}").searchAll({ emotion: "哀" });
const byBodyPart = hits.groupby("bodyPart").count().orderby("bodyPart");`),
    codeCell(`await saveBundle("out/bundle", {
  tables: { hits, byBodyPart },
  title: "Sadness, by body part",
  license: "https://creativecommons.org/licenses/by/4.0/",
});`),
  ],
  metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
  nbformat: 4,
  nbformat_minor: 5,
});

Deno.test({
  name: "a notebook recorded in the Deno kernel reproduces from its recording, confined",
  ignore: !jupyterAvailable() && Deno.env.get("CI") !== "true",
  async fn() {
    const project = await Deno.makeTempDir();
    try {
      const { imports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
      await Deno.writeTextFile(`${project}/deno.json`, JSON.stringify({ imports }));
      // And its lockfile: the versions tidepool is tested with (newer ones need packages npm lacks).
      await Deno.copyFile(new URL("deno.lock", root), `${project}/deno.lock`);
      const recording = `${project}/.cache/tidepool`;
      const sandbox = startExpressionSandbox({ size: 300 });
      try {
        await Deno.writeTextFile(`${project}/paper.ipynb`, JSON.stringify(notebook(sandbox.url)));
        const { code, stderr } = await new Deno.Command("jupyter", {
          args: [
            "nbconvert",
            ...executeNotebookArgs(300),
            "--inplace",
            "paper.ipynb",
          ],
          cwd: project,
          env: childEnvironment({ TIDEPOOL_CACHE_MODE: "record", TIDEPOOL_CACHE_DIR: recording }),
          clearEnv: true,
          stdout: "null",
          stderr: "piped",
        }).output();
        assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-3000));
      } finally {
        await sandbox.close();
      }
      const result = await reproduceBundle(`${project}/out/bundle`, `${project}/paper.ipynb`);
      assert.equal(result.ok, true, result.summary);
      assert.match(result.summary, /reproduced: 2 of 2 tables/);
    } finally {
      await Deno.remove(project, { recursive: true });
    }
  },
});
