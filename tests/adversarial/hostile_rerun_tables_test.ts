/**
 * The tables a re-run writes are the author's code's output, so `reproduce`
 * reads them back as untrusted: a Parquet bomb (kilobytes that declare 15
 * million rows) and a file whose footer declares fewer rows than its pages
 * hold. `reproduce.ts` runs as a child under a V8 heap cap, its memory read
 * from /proc, and is judged on what it did: it ended by itself, within the
 * memory bound, failing the reproduction and naming each file.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { projectFolder, runAuthor, TIDEPOOL_MOD } from "../bundle/_paper_project.ts";
import { watchedDeno } from "./_bounded_child.ts";
import { lyingFooter, parquetBomb } from "./_parquet_bombs.ts";

const REPRODUCE = new URL("../../reproduce.ts", import.meta.url).pathname;
const MAX_RSS_KB = 600 * 1024;

Deno.test("reproduce reads the re-run's Parquet files within the bound: a bomb and a lying footer end it in its memory", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-rerun-bomb-" });
  try {
    const project = `${root}/project`;
    await projectFolder(project);
    await Deno.writeFile(`${project}/bomb.bin`, await parquetBomb(15_000_000));
    await Deno.writeFile(`${project}/liar.bin`, await lyingFooter(15_000_000, 10));
    // Recorded honestly; the replay puts the bomb over its table and the liar beside it.
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
if (Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay") {
  await Deno.copyFile("bomb.bin", "out/bundle/counts.parquet");
  await Deno.copyFile("liar.bin", "out/bundle/extra.parquet");
}
`,
    );
    await runAuthor(project, "paper.ts");
    const run = await watchedDeno(
      [
        "run",
        "-A",
        "--frozen",
        "--v8-flags=--max-old-space-size=128",
        REPRODUCE,
        `${project}/out/bundle`,
        `${project}/paper.ts`,
      ],
      {
        maxRssKb: MAX_RSS_KB,
        timeLimitMs: 300_000,
        env: childEnvironment({ HOME: `${root}/home` }),
      },
    );
    assert.ok(run.maxRssKb > 0 && run.maxRssKb < MAX_RSS_KB, `peak memory ${run.maxRssKb} KB`);
    assert.equal(run.code, 1, run.out);
    assert.doesNotMatch(run.out, /Uncaught/);
    assert.match(
      run.out,
      /- counts\.parquet: changed \(unreadable: The Parquet file is too large to read: its footer declares 15000000 rows of 1 columns, more than 10000000 cells\)/,
    );
    // The liar is read only as far as its footer says.
    assert.match(run.out, /- extra\.parquet: new/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
