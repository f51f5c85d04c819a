/**
 * `reproduce` in the layout docs/your-project.md prescribes, built as the
 * guide writes it: a workspace root whose `deno.json` names `./tidepool` (a
 * checkout) and `./analysis` (the user's folder, its own `deno.json` empty),
 * the lock copied from tidepool's. A script in `analysis/` imports tidepool
 * by package name, records a service while writing its bundle, and is
 * reproduced from the recording: the scratch copy is the whole workspace,
 * so the import map comes along.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { copyCheckout } from "../_checkout.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { reproduceCommand } from "./_paper_project.ts";

const SCRIPT = `import { ExpressionSearch, saveBundle } from "@tidepool/tidepool";

const hits = await new ExpressionSearch(Deno.args[0]).searchAll({ emotion: "喜" });
const byBook = hits.groupby("pid").count().orderby("pid");
await saveBundle("out/bundle", { draft: true, tables: { hits, byBook } });
console.log(\`hits: \${hits.numRows()}\`);
`;

Deno.test("reproduce works in the workspace layout of docs/your-project.md", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-my-study-" });
  try {
    // my-study/ as the guide draws it.
    await copyCheckout(`${root}/tidepool`);
    await Deno.mkdir(`${root}/analysis`);
    await Deno.writeTextFile(
      `${root}/deno.json`,
      JSON.stringify({ workspace: ["./tidepool", "./analysis"] }, null, 2),
    );
    await Deno.copyFile(`${root}/tidepool/deno.lock`, `${root}/deno.lock`);
    await Deno.writeTextFile(`${root}/analysis/deno.json`, "{}\n");
    await Deno.writeTextFile(`${root}/analysis/study.ts`, SCRIPT);

    // The author: cd analysis && deno run -A study.ts, recording into analysis/.cache/tidepool.
    const sandbox = startExpressionSandbox({ size: 300 });
    let url: string;
    try {
      url = sandbox.url;
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "study.ts", url],
        cwd: `${root}/analysis`,
        env: childEnvironment({ TIDEPOOL_CACHE_MODE: "record" }),
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(code, 0, new TextDecoder().decode(stderr));
      assert.match(new TextDecoder().decode(stdout), /hits: \d+/);
    } finally {
      await sandbox.close();
    }

    // The reviewer, the service gone: the bundle, the script and the recording, as the guide names them.
    const run = await reproduceCommand([
      `${root}/analysis/out/bundle`,
      `${root}/analysis/study.ts`,
      "--recording",
      `${root}/analysis/.cache/tidepool`,
      "--",
      url,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /reproduced: 2 of 2 tables/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
