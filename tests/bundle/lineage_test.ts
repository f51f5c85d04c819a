/**
 * Derived tables keep their lineage: a table made with Arquero verbs and
 * stated with `withLineage` names its inputs (by digest, and by file when
 * the bundle holds them) and its steps, on the bundle's page, in its
 * RO-Crate (the CreateAction's object) and in its data package; without a
 * stated lineage a verb's table still says it has no provenance.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { attachProvenance, provenance } from "../../lib/table/provenance.ts";
import { lineage, withLineage } from "../../lib/table/lineage.ts";
import { tableDigest } from "../../lib/table/table_digest.ts";
import { checkDataPackage, checkRoCrate } from "./_check_bundle.ts";

function orders() {
  return attachProvenance(
    aq.table({ datatoken: ["0xa", "0xb", "0xa"], amount: [1, 2, 3] }),
    {
      service: "http://127.0.0.1:9/subgraphs/name/ocean",
      operation: "Subgraph.orders",
      params: {},
      tidepoolVersion: "0.1.0",
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:00:01.000Z",
      asOf: { block: 7 },
      cacheKeys: ["k1"],
    },
  );
}

Deno.test("withLineage: inputs by digest and call, steps as text, and the derivation's provenance", () => {
  const input = orders();
  const steps = 'orders.groupby("datatoken").count()';
  const counts = withLineage(input.groupby("datatoken").count(), {
    inputs: { orders: input },
    steps,
  });
  assert.deepEqual(lineage(counts), {
    inputs: [{
      name: "orders",
      sha256: tableDigest(input).sha256,
      rows: 3,
      operation: "Subgraph.orders",
      service: "http://127.0.0.1:9/subgraphs/name/ocean",
    }],
    steps,
  });
  assert.equal(provenance(counts)?.operation, "Arquero verbs");
  assert.deepEqual(provenance(counts)?.cacheKeys, ["k1"]);
  const plain = aq.table({ n: [1] });
  const doubled = withLineage(plain.derive({ m: (d: { n: number }) => d.n * 2 }), {
    inputs: { plain },
    steps: "m = 2n",
  });
  assert.equal(provenance(doubled), undefined, "no input with provenance: none derived");
  assert.equal(lineage(doubled)?.inputs[0].operation, undefined);
});

Deno.test("a bundle shows each derived table's inputs and steps: page, RO-Crate, data package", async () => {
  const dir = `${await Deno.makeTempDir()}/bundle`;
  try {
    const input = orders();
    const elsewhere = aq.table({ datatoken: ["0xa"], name: ["Sea"] });
    const counts = withLineage(
      input.groupby("datatoken").count().join_left(elsewhere, "datatoken"),
      {
        inputs: { orders: input, names: elsewhere },
        steps: 'orders.groupby("datatoken").count().join_left(names, "datatoken")',
      },
    );
    const bare = input.filter((d: { amount: number }) => d.amount > 1);
    await saveBundle(dir, { draft: true, tables: { orders: input, counts, bare } });

    const page = await Deno.readTextFile(`${dir}/index.html`);
    const section = (name: string) =>
      page.slice(
        page.indexOf(`data-table="${name}"`),
        page.indexOf("</section>", page.indexOf(`data-table="${name}"`)),
      );
    assert.match(
      section("counts"),
      /<dt>Made from orders<\/dt><dd><a href="#table-orders"><code>3 rows, table digest [0-9a-f]{64}, from Subgraph\.orders at/,
    );
    assert.match(
      section("counts"),
      /<dt>Made from names<\/dt><dd><code>1 row, table digest [0-9a-f]{64}<\/code>/,
    );
    assert.match(
      section("counts"),
      /<dt>Steps<\/dt><dd><code>orders\.groupby\(&#34;datatoken&#34;\)/,
    );
    assert.doesNotMatch(section("counts"), /no provenance/);
    assert.match(section("bare"), /no provenance/);

    const byId = await checkRoCrate(dir);
    const action = byId.get("#create-counts")!;
    assert.equal(action.name, "Table counts, made with Arquero verbs from orders, names");
    const objects = (action.object as { "@id": string }[]).map((ref) => ref["@id"]);
    assert.ok(objects.includes("orders.parquet"), "the input in the bundle, by its file");
    assert.ok(objects.includes("#steps-counts"));
    const names = byId.get("#input-counts-names")!;
    assert.equal(names.value, tableDigest(elsewhere).sha256);
    assert.match(String(byId.get("#steps-counts")!.value), /join_left\(names/);

    await checkDataPackage(dir);
    const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
    const resource = descriptor.resources.find((r: { path: string }) => r.path === "counts.csv");
    assert.match(
      resource.description,
      /made with Arquero verbs from orders, names: orders\.groupby/,
    );
  } finally {
    await Deno.remove(dir.replace(/\/bundle$/, ""), { recursive: true });
  }
});
