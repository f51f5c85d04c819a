/**
 * saveBundle on hand-made tables of every column type: both metadata files
 * check out against the bytes on disk, the CreateActions tell a table with
 * provenance from one without, and a re-save gives the same data files.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/mod.ts";
import { tableFromColumns } from "../../lib/table/build_table.ts";
import { attachProvenance, provenance } from "../../lib/table/provenance.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { renderPlot } from "../../lib/plot/render_plot.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { checkDataPackage, checkRoCrate } from "./_check_bundle.ts";
import * as Plot from "@observablehq/plot";

/** A table of every tidepool type, with the cells CSV gets wrong most easily. */
function everyType() {
  return tableFromColumns([
    { name: "title", type: "string", values: ["=1+1", "", null, "-INF"] },
    { name: "score", type: "number", values: [1.5, NaN, Infinity, 1e21] },
    { name: "count", type: "integer", values: [1, null, 3, -4] },
    { name: "wei", type: "bigint", values: [2n ** 70n, 1n, null, -(2n ** 60n)] },
    { name: "listed", type: "boolean", values: [true, false, null, true] },
    {
      name: "seen",
      type: "date",
      values: [new Date("2026-06-30T00:00:00Z"), new Date("2026-06-30T10:11:12.345Z"), null, null],
    },
    { name: "tags", type: "array", values: [["a", "b"], [], null, ["c"]] },
    { name: "meta", type: "object", values: [{ a: 1 }, null, { b: [2] }, { c: "d" }] },
    { name: "mixed", type: "object", values: ["text", 2, null, { e: 1 }] },
  ]);
}

function withProvenance() {
  return attachProvenance(aq.table({ id: ["x", "y"] }), {
    service: "http://127.0.0.1:8080/subgraphs/name/ocean",
    operation: "Subgraph.orders",
    params: { consumer: "0xabc", first: 1000 },
    tidepoolVersion: "0.1.0",
    startedAt: "2026-06-30T09:00:00.000Z",
    endedAt: "2026-06-30T09:00:02.000Z",
    asOf: { block: 123, blockTime: "2026-06-30T08:59:00Z" },
    cacheKeys: ["k1", "k2"],
  });
}

async function inTempDir(body: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("saveBundle: every file listed with its hash, every CSV cell of its schema type", async () => {
  await inTempDir(async (dir) => {
    const chart = renderPlot({ marks: [Plot.barY([{ x: "a", y: 1 }], { x: "x", y: "y" })] });
    const saved = await saveBundle(`${dir}/paper`, {
      tables: { everyType: everyType(), orders: withProvenance() },
      plots: { counts: chart },
      title: "Every type",
      license: "https://creativecommons.org/licenses/by/4.0/",
    });
    assert.deepEqual(saved.files.map((file) => file.path), [
      "every_type.csv",
      "every_type.parquet",
      "orders.csv",
      "orders.parquet",
      "counts.svg",
      "CITATION.cff",
      "datapackage.json",
      "index.html",
      "ro-crate-metadata.json",
      "SHA256SUMS",
    ]);
    const rows = await checkDataPackage(`${dir}/paper`);
    assert.deepEqual(Object.fromEntries(rows), {
      "every_type.csv": 4,
      "every_type.parquet": 4,
      "orders.csv": 2,
      "orders.parquet": 2,
    });
    await checkRoCrate(`${dir}/paper`);

    const pkg = JSON.parse(await Deno.readTextFile(`${dir}/paper/datapackage.json`));
    const types = Object.fromEntries(
      pkg.resources[0].schema.fields.map((field: { name: string; type: string }) => [
        field.name,
        field.type,
      ]),
    );
    assert.deepEqual(types, {
      title: "string",
      score: "number",
      count: "integer",
      wei: "integer",
      listed: "boolean",
      seen: "datetime",
      tags: "array",
      meta: "object",
      mixed: "any",
    });
    const csv = await Deno.readTextFile(`${dir}/paper/every_type.csv`);
    const lines = csv.split("\n");
    // Midnight keeps its time, big integers stay exact, numbers use Table Schema tokens,
    // formula-like text is escaped but the INF token is not.
    assert.equal(
      lines[1],
      `'=1+1,1.5,1,1180591620717411303424,true,2026-06-30T00:00:00.000Z,"[""a"",""b""]","{""a"":1}","""text"""`,
    );
    assert.match(lines[2], /^,NaN,,1,false,2026-06-30T10:11:12.345Z,\[\],,2$/);
    assert.match(lines[3], /^,INF,3,,,,,/);
    assert.match(lines[4], /^'-INF,1E\+21,-4,-1152921504606846976,true,,/);
    // The CSV schema says which column's text was escaped; the Parquet file keeps the text.
    assert.match(pkg.resources[0].schema.fields[0].description, /begins with an added '/);
    assert.equal(pkg.resources[1].schema.fields[0].description, "tidepool type: string");
    assert.equal(pkg.resources[2].schema.fields[0].description, "tidepool type: string");
    assert.deepEqual(pkg.licenses, [
      { path: "https://creativecommons.org/licenses/by/4.0/", name: "CC-BY-4.0" },
    ]);
    assert.deepEqual(pkg.resources[2].sources, [
      { title: "Subgraph.orders", path: "http://127.0.0.1:8080/subgraphs/name/ocean" },
    ]);
  });
});

Deno.test("saveBundle: a column name a spreadsheet would run is quoted in the CSV header, and its schema says so", async () => {
  await inTempDir(async (dir) => {
    // Column names can come from a server (an archive's metadata fields).
    const table = aq.table({ "=cmd|' /C calc'!A0": ["x"], plain: [1] });
    await saveBundle(`${dir}/paper`, { draft: true, tables: { fields: table } });
    // The checker holds the CSV header to the CSV schema's field names.
    await checkDataPackage(`${dir}/paper`);
    const header = (await Deno.readTextFile(`${dir}/paper/fields.csv`)).split("\n")[0];
    assert.equal(header, "'=cmd|' /C calc'!A0,plain");
    const pkg = JSON.parse(await Deno.readTextFile(`${dir}/paper/datapackage.json`));
    const [csvField] = pkg.resources[0].schema.fields;
    assert.equal(csvField.name, "'=cmd|' /C calc'!A0");
    assert.match(csvField.description, /name quoted in this file's header/);
    // The Parquet file keeps the name as it was.
    assert.equal(pkg.resources[1].schema.fields[0].name, "=cmd|' /C calc'!A0");
  });
});

Deno.test("saveBundle: a CreateAction from provenance, and an honest one without", async () => {
  await inTempDir(async (dir) => {
    await saveBundle(`${dir}/first`, {
      draft: true,
      tables: { orders: withProvenance(), handMade: aq.table({ n: [1] }) },
    });
    const byId = await checkRoCrate(`${dir}/first`);
    const action = byId.get("#create-orders")!;
    assert.deepEqual(action.object, [
      { "@id": "http://127.0.0.1:8080/subgraphs/name/ocean" },
      { "@id": "#query-orders" },
      { "@id": "#as-of-orders" },
      { "@id": "#cache-keys-orders" },
    ]);
    assert.deepEqual(action.result, [{ "@id": "orders.csv" }, { "@id": "orders.parquet" }]);
    assert.equal(action.startTime, "2026-06-30T09:00:00.000Z");
    assert.equal(action.endTime, "2026-06-30T09:00:02.000Z");
    assert.equal(byId.get("#query-orders")!.name, "Subgraph.orders");
    assert.equal(byId.get("#query-orders")!.value, '{"consumer":"0xabc","first":1000}');
    assert.equal(
      byId.get("#as-of-orders")!.value,
      '{"block":123,"blockTime":"2026-06-30T08:59:00Z"}',
    );
    assert.equal(byId.get("http://127.0.0.1:8080/subgraphs/name/ocean")!["@type"], "WebAPI");

    // The Parquet file keeps the provenance: read back and bundled again, the action is the same.
    const again = await readTable(`${dir}/first/orders.parquet`);
    assert.deepEqual(provenance(again), provenance(withProvenance()));
    await saveBundle(`${dir}/again`, { draft: true, tables: { orders: again } });
    const rebundled = await checkRoCrate(`${dir}/again`);
    assert.deepEqual(rebundled.get("#create-orders"), action);

    const handMade = byId.get("#create-hand_made")!;
    assert.equal(handMade.object, undefined);
    assert.match(handMade.description as string, /The table carries no provenance/);
    const root = byId.get("./")!;
    assert.ok((handMade.startTime as string) >= (root.datePublished as string));
    const license = byId.get((root.license as { "@id": string })["@id"])!;
    assert.match(license.description as string, /No license was given/);
  });
});

Deno.test("saveBundle: the same tables saved again give the same data files", async () => {
  await inTempDir(async (dir) => {
    const chart = renderPlot({ marks: [Plot.dot([{ x: 1, y: 2 }], { x: "x", y: "y" })] });
    const contents = { draft: true, tables: { everyType: everyType() }, plots: { dots: chart } };
    const first = await saveBundle(`${dir}/a`, contents);
    const second = await saveBundle(`${dir}/b`, {
      ...contents,
      tables: { everyType: everyType() },
    });
    const again = await saveBundle(`${dir}/a`, contents);
    const data = (files: typeof first.files) =>
      files.filter((file) => /\.(csv|parquet|svg)$/.test(file.path))
        .map((file) => [file.path, file.sha256]);
    assert.deepEqual(data(second.files), data(first.files));
    assert.deepEqual(data(again.files), data(first.files));
    await checkRoCrate(`${dir}/a`);
    // The check reads the bytes: one changed cell is caught by both metadata files.
    const csv = await Deno.readTextFile(`${dir}/a/every_type.csv`);
    await Deno.writeTextFile(`${dir}/a/every_type.csv`, csv.replace("1.5", "1.6"));
    await assert.rejects(checkRoCrate(`${dir}/a`), /sha256 of every_type.csv/);
    await assert.rejects(checkDataPackage(`${dir}/a`), /hash of every_type.csv/);
  });
});

Deno.test("saveBundle: saved again with fewer tables, the earlier bundle's extra files go", async () => {
  await inTempDir(async (dir) => {
    await saveBundle(dir, {
      draft: true,
      tables: { kept: aq.table({ n: [1] }), dropped: aq.table({ n: [2] }) },
    });
    await saveBundle(dir, { draft: true, tables: { kept: aq.table({ n: [1] }) } });
    const names = [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
    assert.deepEqual(names, [
      "CITATION.cff",
      "SHA256SUMS",
      "datapackage.json",
      "index.html",
      "kept.csv",
      "kept.parquet",
      "ro-crate-metadata.json",
    ]);
    await checkRoCrate(dir);
    await checkDataPackage(dir);
    // A file the earlier bundle did not list is the user's: refused, not removed.
    await Deno.writeTextFile(`${dir}/notes.csv`, "mine");
    await assert.rejects(
      saveBundle(dir, { draft: true, tables: { other: aq.table({ n: [3] }) } }),
      /notes\.csv/,
    );
    assert.ok(Deno.statSync(`${dir}/notes.csv`).isFile);
    assert.ok(Deno.statSync(`${dir}/kept.csv`).isFile);
  });
});

Deno.test("saveBundle: refuses a folder with other files, clashing names and nothing to save", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
    await assert.rejects(
      saveBundle(dir, { draft: true, tables: { t: aq.table({ n: [1] }) } }),
      (error: TidepoolError) => error.message.includes("notes.txt") && !!error.hint,
    );
    await assert.rejects(
      saveBundle(`${dir}/x`, {
        draft: true,
        tables: { ordersPerWeek: aq.table({}), orders_per_week: aq.table({}) },
      }),
      /both would be orders_per_week/,
    );
    await assert.rejects(saveBundle(`${dir}/y`, { draft: true }), /Cannot save an empty bundle/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["notes.txt"]);
  });
});

Deno.test("saveBundle: a folder another tool described, or files tidepool did not write, keep every byte", async () => {
  await inTempDir(async (dir) => {
    // Another tool's RO-Crate, listing the user's own files (with their hashes).
    const mine = { "notes.csv": "mine,1\n", "datapackage.json": '{"name":"theirs"}\n' };
    for (const [name, text] of Object.entries(mine)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const parts = Object.keys(mine).map((name) => ({ "@id": name }));
    const crate = JSON.stringify({
      "@context": "https://w3id.org/ro/crate/1.2/context",
      "@graph": [
        { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
        { "@id": "./", "@type": "Dataset", hasPart: parts },
        ...Object.keys(mine).map((name) => ({ "@id": name, "@type": "File" })),
        { "@id": "#other", "@type": "SoftwareApplication", name: "another tool" },
      ],
    });
    await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, crate);
    const before = Object.fromEntries(
      [...Deno.readDirSync(dir)].map((
        entry,
      ) => [entry.name, Deno.readTextFileSync(`${dir}/${entry.name}`)]),
    );
    await assert.rejects(
      saveBundle(dir, { draft: true, tables: { other: aq.table({ n: [3] }) } }),
      /it holds files tidepool did not write: datapackage\.json, notes\.csv, ro-crate-metadata\.json/,
    );
    const after = Object.fromEntries(
      [...Deno.readDirSync(dir)].map((
        entry,
      ) => [entry.name, Deno.readTextFileSync(`${dir}/${entry.name}`)]),
    );
    assert.deepEqual(after, before);

    // A file of the user's under a name the bundle writes is not replaced either.
    await Deno.mkdir(`${dir}/b`);
    await Deno.writeTextFile(`${dir}/b/orders.csv`, "mine\n");
    await assert.rejects(
      saveBundle(`${dir}/b`, { draft: true, tables: { orders: aq.table({ n: [1] }) } }),
      /did not write: orders\.csv/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/b/orders.csv`), "mine\n");

    // A bundle file edited since tidepool wrote it is the user's now.
    await saveBundle(`${dir}/c`, {
      draft: true,
      tables: { kept: aq.table({ n: [1] }), gone: aq.table({ n: [2] }) },
    });
    await Deno.writeTextFile(`${dir}/c/gone.csv`, "edited\n");
    await assert.rejects(
      saveBundle(`${dir}/c`, { draft: true, tables: { kept: aq.table({ n: [1] }) } }),
      /did not write: gone\.csv/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/c/gone.csv`), "edited\n");
    // overwrite: true replaces what tidepool wrote, changed or not, and still nothing else.
    await Deno.writeTextFile(`${dir}/c/notes.txt`, "mine\n");
    await assert.rejects(
      saveBundle(`${dir}/c`, {
        draft: true,
        tables: { kept: aq.table({ n: [1] }) },
        overwrite: true,
      }),
      /did not write: notes\.txt/,
    );
    await Deno.remove(`${dir}/c/notes.txt`);
    await saveBundle(`${dir}/c`, {
      draft: true,
      tables: { kept: aq.table({ n: [1] }) },
      overwrite: true,
    });
    await assert.rejects(Deno.stat(`${dir}/c/gone.csv`), Deno.errors.NotFound);
  });
});
