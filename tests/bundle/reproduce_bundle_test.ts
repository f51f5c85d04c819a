/**
 * reproduceBundle and `deno task reproduce` as a paper's repository uses
 * them: a script records two services and saves a bundle; re-run from the
 * recording with the network denied (in a scratch copy, the author's files
 * untouched) every table comes out the same; with one value of the
 * recording edited, exactly the one table built from it is reported changed.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { reproduceBundle } from "../../lib/bundle/reproduce_bundle.ts";
import { rows } from "../../lib/table/typed_rows.ts";
import type { ReproducedTable } from "../../lib/bundle/reproduce_bundle.ts";

const root = new URL("../../", import.meta.url);

/** A paper's script: two services read (at the addresses it names), one table derived, one bundle saved. */
const script = (urls: { subgraph: string; expressions: string }) => `
import * as aq from "npm:arquero@8.0.3";
import { ExpressionSearch, saveBundle, Subgraph } from "${new URL("mod.ts", root)}";
const orders = await new Subgraph("${urls.subgraph}").orders();
const hits = await new ExpressionSearch("${urls.expressions}").searchAll({ emotion: "喜" });
const byIntensity = hits.groupby("intensity").count().orderby("intensity");
await saveBundle("out/bundle", {
  tables: { orders, hits, byIntensity },
  title: "A reproducible paper",
  license: "https://creativecommons.org/licenses/by/4.0/",
});
`;

/** Every recorded answer file below a folder. */
async function recordedFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await recordedFiles(path));
    else if (entry.name.endsWith(".json")) found.push(path);
  }
  return found.sort();
}

Deno.test("a bundle reproduces from its recording offline, and an edited recording names the one table it changed", async () => {
  const project = await Deno.makeTempDir();
  try {
    // The paper's own deno.json: tidepool's dependencies, as a project that imports it has.
    const { imports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
    await Deno.writeTextFile(`${project}/deno.json`, JSON.stringify({ imports }));
    // And its lockfile: the versions tidepool is tested with (newer ones need packages npm lacks).
    await Deno.copyFile(new URL("deno.lock", root), `${project}/deno.lock`);
    const recording = `${project}/.cache/tidepool`;
    const subgraph = serveSubgraph();
    const expressions = startExpressionSandbox({ size: 300 });
    try {
      await Deno.writeTextFile(
        `${project}/paper.ts`,
        script({ subgraph: subgraph.endpoint, expressions: expressions.url }),
      );
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "paper.ts"],
        cwd: project,
        env: childEnvironment({
          TIDEPOOL_CACHE_MODE: "record",
          TIDEPOOL_CACHE_DIR: recording,
        }),
        clearEnv: true,
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(code, 0, new TextDecoder().decode(stderr));
    } finally {
      await expressions.close();
      await subgraph.close();
    }
    const crate = await Deno.readTextFile(`${project}/out/bundle/ro-crate-metadata.json`);

    // Services stopped: the re-run has only the recording.
    const same = await reproduceBundle(`${project}/out/bundle`, `${project}/paper.ts`);
    assert.equal(same.ok, true, same.summary);
    assert.deepEqual(
      rows<ReproducedTable>(same.tables).map((row) => [row.file, row.status]),
      [["by_intensity.parquet", "same"], ["hits.parquet", "same"], ["orders.parquet", "same"]],
    );
    assert.equal(
      await Deno.readTextFile(`${project}/out/bundle/ro-crate-metadata.json`),
      crate,
      "the author's bundle is not written over",
    );

    // One value of one recorded answer edited: a hit's surface text, which no count uses.
    let edited = "";
    for (const path of await recordedFiles(recording)) {
      const file = JSON.parse(await Deno.readTextFile(path));
      if (typeof file.bodyBase64 !== "string") continue;
      const body = new TextDecoder().decode(
        Uint8Array.from(atob(file.bodyBase64), (c) => c.charCodeAt(0)),
      );
      const match = body.match(/"surface":"([^"]+)"/);
      if (!body.includes('"hits"') || !match) continue;
      const changed = body.replace(match[0], `"surface":"${match[1]}!"`);
      const bytes = new TextEncoder().encode(changed);
      file.bodyBase64 = btoa(String.fromCharCode(...bytes));
      await Deno.writeTextFile(path, JSON.stringify(file));
      edited = path;
      break;
    }
    assert.ok(edited, "a recorded search answer to edit");
    const changed = await reproduceBundle(`${project}/out/bundle`, `${project}/paper.ts`, {
      recording,
    });
    assert.equal(changed.ok, false);
    assert.deepEqual(
      rows<ReproducedTable>(changed.tables).filter((row) => row.status !== "same").map((row) =>
        row.file
      ),
      ["hits.parquet"],
    );
    assert.match(changed.summary, /1 of 3 tables differ:\n- hits\.parquet: changed/);

    // The command a reviewer types: exit code 1 and the table named.
    const cli = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "reproduce", `${project}/out/bundle`, `${project}/paper.ts`],
      cwd: root.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(cli.code, 1, new TextDecoder().decode(cli.stderr));
    assert.match(new TextDecoder().decode(cli.stdout), /hits\.parquet: changed/);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
