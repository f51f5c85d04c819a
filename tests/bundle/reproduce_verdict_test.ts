/**
 * What `reproduce`'s exit code may mean: 0 only when every table was re-made
 * and compared equal. A table from requests no recording keeps ("not
 * recorded") fails it unless the reviewer passes `--allow-not-recorded`; a
 * bundle none of whose tables was re-made fails even then; and a re-run
 * that writes the expected digests into its crate over other data is caught,
 * since the digests compared are computed from the Parquet files it wrote.
 */

import assert from "node:assert/strict";
import { projectFolder, reproduceCommand, runAuthor, TIDEPOOL_MOD } from "./_paper_project.ts";

const PROVENANCE = new URL("../../lib/table/provenance.ts", import.meta.url).href;

/**
 * A paper whose `signed` table comes from a traced call none of whose
 * requests were recorded (as a compute job's are): in replay it comes out
 * empty. `kept` comes out the same.
 */
const PAPER = (tables: string) =>
  `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
import { attachProvenance } from "${PROVENANCE}";
const replay = Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay";
const kept = aq.table({ n: [1, 2, 3] });
const signed = attachProvenance(aq.table({ job: replay ? [] : ["j1"] }), {
  service: "http://127.0.0.1:9", operation: "OceanNode.downloadResults", params: {},
  tidepoolVersion: "0.1.0", startedAt: "2026-01-01T00:00:00Z", endedAt: "2026-01-01T00:00:01Z",
  asOf: {}, cacheKeys: [],
});
await saveBundle("out/bundle", { draft: true, tables: { ${tables} } });
`;

async function paper(scene: string, tables: string): Promise<string[]> {
  const project = `${scene}/project`;
  await projectFolder(project);
  await Deno.writeTextFile(`${project}/paper.ts`, PAPER(tables));
  await runAuthor(project, "paper.ts");
  return [
    `${project}/out/bundle`,
    `${project}/paper.ts`,
    "--recording",
    `${project}/.cache/tidepool`,
  ];
}

Deno.test("a table not recorded fails reproduce unless --allow-not-recorded", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-verdict-" });
  try {
    const args = await paper(scene, "kept, signed");
    const strict = await reproduceCommand(args);
    assert.equal(strict.code, 1, strict.stdout + strict.stderr);
    assert.match(strict.stdout, /signed\.parquet +not recorded/);
    assert.match(strict.stdout, /1 of 2 tables differ:\n- signed\.parquet: not recorded/);
    assert.match(strict.stdout, /--allow-not-recorded/);
    const allowed = await reproduceCommand([...args, "--allow-not-recorded"]);
    assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
    assert.match(allowed.stdout, /reproduced: 1 of 2 tables .*; 1 came from requests no recording/);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a bundle none of whose tables was re-made never passes", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-verdict-" });
  try {
    const args = await paper(scene, "signed");
    for (const extra of [[], ["--allow-not-recorded"]]) {
      const run = await reproduceCommand([...args, ...extra]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.doesNotMatch(run.stdout, /: reproduced: /);
      assert.match(
        run.stdout,
        extra.length ? /nothing reproduced: 0 of 1 tables were re-made/ : /1 of 1 tables differ/,
      );
    }
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a re-run that writes the expected digests over other data is caught", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-verdict-" });
  try {
    const project = `${scene}/project`;
    await projectFolder(project);
    // The author's run keeps its crate; the replay writes other rows, then puts that crate back.
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
const replay = Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay";
await saveBundle("out/bundle", { draft: true, tables: { kept: aq.table({ n: replay ? [9] : [1, 2] }) } });
const crate = "out/bundle/ro-crate-metadata.json";
if (replay) await Deno.writeTextFile(crate, await Deno.readTextFile("expected.json"));
else await Deno.writeTextFile("expected.json", await Deno.readTextFile(crate));
`,
    );
    await runAuthor(project, "paper.ts");
    const run = await reproduceCommand([
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      "--recording",
      `${project}/.cache/tidepool`,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /- kept\.parquet: changed/);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

/**
 * A paper whose `kept` table comes from a recorded call (its cache keys in
 * the crate) and is changed in the replay, beside an honest `signed` table.
 */
const FORGED_PAPER = `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
import { attachProvenance } from "${PROVENANCE}";
const replay = Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay";
const call = (operation: string, cacheKeys: string[]) => ({
  service: "http://127.0.0.1:9", operation, params: {}, tidepoolVersion: "0.1.0",
  startedAt: "2026-01-01T00:00:00Z", endedAt: "2026-01-01T00:00:01Z", asOf: {}, cacheKeys,
});
const kept = attachProvenance(aq.table({ n: replay ? [9] : [1, 2, 3] }), call("Subgraph.orders", ["k1"]));
const signed = attachProvenance(aq.table({ job: replay ? [] : ["j1"] }), call("OceanNode.downloadResults", []));
await saveBundle("out/bundle", { draft: true, tables: { kept, signed } });
`;

type Entity = Record<string, unknown> & { "@id": string };

Deno.test("--allow-not-recorded never excuses a table the crate ties to recorded requests", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-verdict-" });
  try {
    const project = `${scene}/project`;
    await projectFolder(project);
    await Deno.writeTextFile(`${project}/paper.ts`, FORGED_PAPER);
    await runAuthor(project, "paper.ts");
    const cratePath = `${project}/out/bundle/ro-crate-metadata.json`;
    const original = await Deno.readTextFile(cratePath);
    const args = [
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      "--recording",
      `${project}/.cache/tidepool`,
      "--allow-not-recorded",
    ];
    const honest = await reproduceCommand(args);
    assert.equal(honest.code, 1, honest.stdout + honest.stderr);
    assert.match(honest.stdout, /- kept\.parquet: changed/);

    // The author's edits of the crate that would make the changed table "not recorded".
    const forgeries: [string, (graph: Entity[]) => void][] = [
      ["a second action naming the table, with a traced call and no cache keys", (graph) => {
        graph.push({
          "@id": "#create-forged",
          "@type": "CreateAction",
          object: [{ "@id": "#query-signed" }],
          result: [{ "@id": "kept.parquet" }],
        });
      }],
      ["a second action naming the table in another spelling", (graph) => {
        graph.push({
          "@id": "#create-forged",
          "@type": "CreateAction",
          object: { "@id": "#query-kept" },
          result: { "@id": "kept%2Eparquet" },
        });
      }],
      ["the table's action without its link to the cache keys the crate still holds", (graph) => {
        const action = graph.find((entity) => entity["@id"] === "#create-kept")!;
        action.object = (action.object as Entity[]).filter((ref) =>
          !ref["@id"].startsWith("#cache-keys-")
        );
      }],
    ];
    for (const [what, forge] of forgeries) {
      const crate = JSON.parse(original);
      assert.ok(crate["@graph"].some((entity: Entity) => entity["@id"] === "#cache-keys-kept"));
      forge(crate["@graph"]);
      await Deno.writeTextFile(cratePath, JSON.stringify(crate));
      const run = await reproduceCommand(args);
      assert.equal(run.code, 1, `${what}:\n${run.stdout}${run.stderr}`);
      assert.match(run.stdout, /- kept\.parquet: changed/, what);
      assert.match(run.stdout, /signed\.parquet +not recorded/, what);
    }
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});
