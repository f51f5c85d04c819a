import assert from "node:assert/strict";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/mod.ts";
import { checkDataPackage, checkRoCrate } from "../bundle/_check_bundle.ts";
import { verifyBundle } from "../../lib/bundle/verify_bundle.ts";
import { inkShare, openOffline } from "../_chromium.ts";
import { childEnvironment, runDemo } from "../_child_runs.ts";

Deno.test("the demo runs against the sandbox and writes every table and chart", async () => {
  const out = await Deno.makeTempDir();
  try {
    const printed = await runDemo(out, childEnvironment());
    assert.match(printed, /^sandbox: wrote \d+ files/m);
    // The README's listing of this output is a run's, not typed: every line it shows is printed.
    const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
    const section = readme.slice(readme.indexOf("## The two commands"));
    const listing = section.match(/```text\n([\s\S]*?)```/)![1];
    const squeeze = (line: string) =>
      line.trim().replace(/\s+/g, " ").replace(/\/tmp\/\S+?\//, "out/");
    const shown = printed.split("\n").map((line) => squeeze(line.replaceAll(out, "out")));
    for (const line of listing.split("\n").map(squeeze)) {
      if (line === "" || line === "..." || /^done in /.test(line)) continue;
      assert.ok(shown.includes(line), `README lists "${line}", the demo printed otherwise`);
    }
    const files = [...Deno.readDirSync(out)].filter((e) => e.isFile).map((e) => e.name).sort();
    for (const prefix of ["ocean_", "compute_", "subgraph_", "archive_", "expressions_"]) {
      assert.ok(files.some((f) => f.startsWith(prefix) && f.endsWith(".csv")), `${prefix} CSV`);
      assert.ok(files.some((f) => f.startsWith(prefix) && f.endsWith(".svg")), `${prefix} SVG`);
    }
    for (const file of files.filter((f) => f.endsWith(".svg"))) {
      const svg = await Deno.readTextFile(`${out}/${file}`);
      assert.match(
        svg,
        /^(<\?xml[^>]*>\s*)?<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
        file,
      );
    }
    // Each printed row count is the number of data lines in its CSV.
    for (const [, file, rows] of printed.matchAll(/^\s+\S+\/(\S+\.csv)\s+(\d+) rows$/gm)) {
      const lines = (await Deno.readTextFile(`${out}/${file}`)).trimEnd().split("\n");
      assert.ok(lines.length - 1 >= Number(rows), `${file}: ${lines.length - 1} < ${rows}`);
    }
    const orders = await Deno.readTextFile(`${out}/subgraph_orders.csv`);
    assert.equal(orders.trimEnd().split("\n").length - 1, 12_000);

    // The bundle: another tool (DuckDB) reads every Parquet file, both JSON files
    // list every file with its hash, every table is in it, and the wallet key is not.
    const bundle = `${out}/bundle`;
    const rows = await checkDataPackage(bundle);
    const crate = await checkRoCrate(bundle);
    assert.equal(
      crate.get("#create-subgraph_orders")?.name,
      "Table subgraph_orders from Subgraph.orders",
    );
    assert.equal(rows.get("subgraph_orders.parquet"), 12_000);
    for (const file of files.filter((f) => f.endsWith(".csv") || f.endsWith(".svg"))) {
      assert.ok(Deno.statSync(`${bundle}/${file}`).isFile, `${file} in the bundle`);
    }
    // And what a reviewer runs on it holds.
    const check = await verifyBundle(bundle);
    assert.equal(check.ok, true, check.summary);
    const bundleCsv = [...Deno.readDirSync(bundle)].filter((e) => e.name.endsWith(".csv"));
    assert.equal(check.checked.tables, 2 * bundleCsv.length);
    // Its page, opened from disk offline in Chromium, shows every table and chart.
    const { dom, png } = await openOffline(`${bundle}/index.html`);
    assert.ok(inkShare(png) > 0.01, "the page renders");
    const svgFiles = [...Deno.readDirSync(bundle)].filter((e) => e.name.endsWith(".svg"));
    assert.deepEqual([bundleCsv.length, svgFiles.length], [20, 12]);
    assert.equal(dom.match(/<section id="table-/g)?.length, 20);
    assert.equal(dom.match(/<figure class="chart"/g)?.length, 12);
    for (const csv of bundleCsv) {
      assert.ok(dom.includes(`id="table-${csv.name.replace(/\.csv$/, "")}"`), csv.name);
    }
    // Every table says where it came from: a call, or the tables and steps it was made from.
    const page = await Deno.readTextFile(`${bundle}/index.html`);
    for (const [section] of page.matchAll(/<section id="table-[\s\S]*?<\/section>/g)) {
      const name = section.match(/data-table="([^"]+)"/)![1];
      assert.doesNotMatch(section, /no provenance/, `${name} says where it came from`);
      assert.match(section, /<dt>(Call|Made from \w+)<\/dt>/, name);
    }
    const key = SANDBOX_WALLET_KEY.slice(2).toLowerCase();
    for (const entry of Deno.readDirSync(bundle)) {
      const text = new TextDecoder().decode(Deno.readFileSync(`${bundle}/${entry.name}`));
      assert.ok(!text.toLowerCase().includes(key), `${entry.name} holds no private key`);
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
