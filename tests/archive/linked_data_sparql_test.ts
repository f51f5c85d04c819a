import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import sparqljs from "sparqljs";
import { sparql, SparqlSyntaxError } from "../../lib/archive/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const S = "http://schema.org/";
const RICO = "https://www.ica.org/standards/RiC/ontology#";
const XSD = "http://www.w3.org/2001/XMLSchema#";

function tripleSet(table: ColumnTable): string[] {
  return (table.objects() as Record<string, unknown>[]).map((r) => JSON.stringify(r)).sort();
}

Deno.test("linked data: each format parsed to the same triples, mapping rules kept", async (t) => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const letters = sandbox.seed.databases.find((d) => d.slug === "letters")!;
    const bySlug = new Map(letters.resources.map((r) => [r.slug, r]));
    const item = letters.resources.find((r) =>
      r.is_public && r.parent && bySlug.get(r.parent)!.is_public && r.metadata.condition &&
      r.metadata["dcterms:spatial"] === "Edo"
    )!;
    const uri = `${sandbox.url}/shinano/letters/data/${item.slug}`;

    await t.step("JSON-LD and Turtle give the same triples, in both profiles", async () => {
      const jsonld = await archive.linkedDataTable(item.slug, "jsonld");
      const ttl = await archive.linkedDataTable(item.slug, "ttl");
      assert.deepEqual(jsonld.columnNames(), [
        "subject",
        "predicate",
        "object",
        "objectType",
        "datatype",
        "lang",
      ]);
      assert.ok(jsonld.numRows() >= 8);
      assert.deepEqual(tripleSet(jsonld), tripleSet(ttl));
      const rico = await archive.linkedDataTable(item.slug, "rico");
      const ricoTtl = await archive.linkedDataTable(item.slug, "rico-ttl");
      assert.deepEqual(tripleSet(rico), tripleSet(ricoTtl));
      const ricoRows = rico.objects() as Record<string, string>[];
      assert.ok(ricoRows.some((r) => r.predicate === `${RICO}isOrWasIncludedIn`));
      assert.ok(ricoRows.some((r) => r.predicate === `${RICO}hasInstantiation`));
      assert.ok(ricoRows.some((r) => r.subject === `${uri}#instantiation`));
    });

    await t.step(
      "CURIE keys unchanged, free keys in description, about, visible parent",
      async () => {
        const rows = (await archive.linkedDataTable(item.slug)).objects() as Record<
          string,
          string
        >[];
        const of = (p: string) => rows.filter((r) => r.subject === uri && r.predicate === p);
        assert.equal(of("http://purl.org/dc/terms/spatial")[0].object, "Edo");
        const description = of(`${S}description`)[0].object;
        assert.ok(description.split("\n").includes(`condition: ${item.metadata.condition}`));
        assert.ok(of(`${S}about`).some((r) => r.object.endsWith("/entities/tokyo")));
        assert.equal(
          of(`${S}isPartOf`)[0].object,
          `${sandbox.url}/shinano/letters/data/${item.parent}`,
        );
        const name = of(`${S}name`)[0];
        assert.equal(name.object, item.title);
        assert.equal(name.objectType, "literal");
        assert.ok(name.lang === "en" || name.lang === "ja");
      },
    );

    await t.step("hierarchy links only what the caller may see", async () => {
      const child = letters.resources.find((r) =>
        r.is_public && r.parent && !bySlug.get(r.parent)!.is_public
      )!;
      const anonymous = (await archive.linkedDataTable(child.slug)).objects() as Record<
        string,
        string
      >[];
      assert.ok(!anonymous.some((r) => r.predicate === `${S}isPartOf`));
      const keyed = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.shinanoRead, auth: "always" });
      const rows = (await keyed.archive.linkedDataTable(child.slug)).objects() as Record<
        string,
        string
      >[];
      assert.ok(rows.some((r) => r.predicate === `${S}isPartOf`));
    });

    await t.step("linkedData: JSON-LD objects and Turtle text", async () => {
      const doc = await archive.linkedData(item.slug, "jsonld") as Record<string, unknown>;
      assert.equal(doc["@id"], uri);
      assert.ok(typeof doc["@context"] === "object");
      const text = await archive.linkedData(item.slug, "ttl");
      assert.match(text, /@prefix schema: <http:\/\/schema\.org\/>/);
    });
  });
});

Deno.test("sparql: typing, unbound, ASK, CONSTRUCT, formats, errors and injection", async (t) => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const letters = sandbox.seed.databases.find((d) => d.slug === "letters")!;
    const publicMaps = letters.resources.filter((r) =>
      r.is_public && r.metadata["dcterms:type"] === "map"
    );

    await t.step(
      "SELECT columns follow head.vars, typed from datatypes, unbound null",
      async () => {
        const table = await archive.sparql(
          `PREFIX xsd: <${XSD}>
SELECT ?i ?big ?dec ?dbl ?flag ?day ?at ?text ?iri ?none WHERE {
  BIND(42 AS ?i) BIND(9007199254740993 AS ?big) BIND(1.25 AS ?dec) BIND(2.5e3 AS ?dbl)
  BIND(true AS ?flag) BIND("1868-10-23"^^xsd:date AS ?day)
  BIND("1868-10-23T09:30:00Z"^^xsd:dateTime AS ?at) BIND("明治"@ja AS ?text)
  BIND(<http://example.org/x> AS ?iri)
  OPTIONAL { ?nothing <http://example.org/none> ?none }
}`,
          { lang: true },
        );
        assert.deepEqual(table.columnNames().slice(0, 10), [
          "i",
          "big",
          "dec",
          "dbl",
          "flag",
          "day",
          "at",
          "text",
          "iri",
          "none",
        ]);
        const row = (table.objects() as Record<string, unknown>[])[0];
        assert.equal(row.i, 42);
        assert.equal(row.big, 9007199254740993n);
        assert.equal(row.dec, 1.25);
        assert.equal(row.dbl, 2500);
        assert.equal(row.flag, true);
        assert.equal((row.day as Date).toISOString(), "1868-10-23T00:00:00.000Z");
        assert.equal((row.at as Date).toISOString(), "1868-10-23T09:30:00.000Z");
        assert.equal(row.text, "明治");
        assert.equal(row.text_lang, "ja");
        assert.equal(row.iri, "http://example.org/x");
        assert.equal(row.none, null);
        const types = columnTypes(table);
        assert.deepEqual(
          [types.i, types.big, types.dec, types.flag, types.day, types.text],
          ["number", "bigint", "number", "boolean", "date", "string"],
        );
      },
    );

    await t.step(
      "the store holds the public resources of the site, one graph per site",
      async () => {
        const count = await archive.sparql(
          `SELECT (COUNT(?s) AS ?n) WHERE { ?s a <${S}Map> }`,
        );
        assert.equal(count.array("n")[0], publicMaps.length);
        const graphs = await archive.sparql("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }");
        assert.deepEqual((graphs.array("g") as string[]).map((g) => new URL(g).pathname).sort(), [
          "/harbor/photos/graph",
          "/shinano/letters/graph",
        ]);
      },
    );

    await t.step("JSON, XML, CSV and TSV answers agree", async () => {
      const query = `SELECT ?s ?name WHERE { ?s <${S}name> ?name } ORDER BY ?s LIMIT 20`;
      const json = await archive.sparql(query, { format: "json" });
      for (const format of ["xml", "csv", "tsv"] as const) {
        const other = await archive.sparql(query, { format });
        assert.deepEqual(other.objects(), json.objects(), format);
      }
    });

    await t.step("ASK answers a boolean; CONSTRUCT a triples table", async () => {
      assert.equal(await archive.sparql<boolean>(`ASK { ?s a <${S}Map> }`), true);
      assert.equal(await archive.sparql<boolean>(`ASK { ?s a <${S}Spaceship> }`), false);
      const built = await archive.sparql(
        `CONSTRUCT { ?s <${S}name> ?n } WHERE { ?s a <${S}Map> ; <${S}name> ?n }`,
      );
      assert.equal(built.numRows(), publicMaps.length);
      assert.deepEqual(new Set(built.array("objectType")), new Set(["literal"]));
      assert.ok((built.array("lang") as string[]).every((l) => l === "en" || l === "ja"));
    });

    await t.step("a syntax error is reported with its position and nothing is sent", async () => {
      const before = sandbox.requests.length;
      const error = await archive.sparql("SELECT ?s\nWHERE {\n  ?s ?p ?o .\n  FILTER(?o = )\n}")
        .catch((e) => e);
      assert.ok(error instanceof SparqlSyntaxError);
      assert.equal(error.line, 4);
      assert.equal(error.column, 15);
      assert.equal(sandbox.requests.length, before);
    });

    await t.step("values through the template tag cannot change the query", async () => {
      const title = publicMaps[0].title;
      const template = (value: string) =>
        sparql`SELECT ?s WHERE { ?s ${sparql.iri(`${S}name`)} ?n . FILTER(STR(?n) = ${value}) }`;
      const honest = await archive.sparql(template(title));
      assert.ok(honest.numRows() >= 1);
      const attack = `x") || true || STR(?n) = ("`;
      const injected = template(attack);
      const parsed = new sparqljs.Parser().parse(injected);
      const reference = new sparqljs.Parser().parse(template("placeholder"));
      const shape = (q: unknown) =>
        JSON.stringify(
          q,
          (
            key,
            value,
          ) => (key === "value" && typeof value === "string" && value !== "s" && value !== "n" &&
              !value.startsWith("http")
            ? ""
            : value),
        );
      assert.equal(shape(parsed), shape(reference), "the structure did not change");
      const result = await archive.sparql(injected);
      assert.equal(result.numRows(), 0);
      assert.throws(() => sparql.iri("http://x.example/> } ?s ?p ?o {"), /Cannot use this value/);
      assert.equal(sparql`${'a\nb"c\\'}`, '"a\\nb\\"c\\\\"');
      assert.equal(sparql`${7}`, `"7"^^<${XSD}integer>`);
    });

    await t.step("a long query goes as an idempotent POST", async () => {
      const values = publicMaps.map((r) => r.slug);
      const query = sparql`SELECT ?s WHERE { VALUES ?id { ${values} } ?s ${
        sparql.iri(`${S}identifier`)
      } ?id }`;
      const table = await archive.sparql(query);
      assert.equal(sandbox.requests.at(-1)!.method, "POST");
      assert.equal(table.numRows(), publicMaps.length);
    });

    await t.step("IIIF: version 3 and version 2 info, image URLs", async () => {
      const info = await archive.iiifInfo("img-0001");
      assert.equal(info.version, 3);
      assert.equal(info.width, 6000);
      assert.equal(
        archive.iiifImageUrl(info, { region: "square", size: "!400,400", rotation: 90 }),
        `${sandbox.url}/api/shinano/iiif-img/3/img-0001/square/!400,400/90/default.jpg`,
      );
      assert.throws(() => archive.iiifImageUrl("img-0001", { size: "huge" }), /Invalid IIIF size/);
      const harbor = archiveOn(sandbox, { account: "harbor", db: "photos" }).archive;
      const v2 = await harbor.iiifInfo("img-0100");
      assert.equal(v2.version, 2);
      assert.equal(v2.profile, "level2");
      assert.ok(
        harbor.iiifImageUrl(v2, { format: "png" }).endsWith("/img-0100/full/max/0/default.png"),
      );
      await assert.rejects(archive.iiifInfo("img-0002"), /may be private/);
    });
  });
});
