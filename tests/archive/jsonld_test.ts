import assert from "node:assert/strict";
import { jsonLdToTriples } from "../../lib/archive/_jsonld.ts";

const S = "http://schema.org/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

Deno.test("JSON-LD reader: prefixes, terms, coercion, nested blank nodes, literals, lists", () => {
  const triples = jsonLdToTriples({
    "@context": [{ "@vocab": S }, {
      ex: "http://example.org/",
      seeAlso: { "@id": "ex:seeAlso", "@type": "@id" },
      born: { "@id": "ex:born", "@type": "xsd:date" },
      xsd: XSD,
      tags: { "@id": "ex:tags", "@container": "@list" },
    }],
    "@id": "ex:a",
    "@type": ["Person", "ex:Agent"],
    name: [{ "@value": "夏目", "@language": "ja" }, "Natsume"],
    seeAlso: "http://example.org/b",
    born: "1867-02-09",
    age: 49,
    height: 1.59,
    alive: false,
    address: { "@type": "PostalAddress", addressLocality: "Tokyo" },
    tags: ["x", "y"],
    "ex:unmapped": { "@id": "_:k" },
    ignored: null,
  });
  const find = (p: string) => triples.filter((t) => t.predicate === p);
  assert.deepEqual(
    find(`${RDF}type`).filter((t) => !t.subject.startsWith("_:")).map((t) => t.object),
    [
      `${S}Person`,
      "http://example.org/Agent",
    ],
  );
  assert.deepEqual(find(`${S}name`).map((t) => [t.object, t.lang, t.datatype]), [
    ["夏目", "ja", `${RDF}langString`],
    ["Natsume", null, `${XSD}string`],
  ]);
  assert.equal(find("http://example.org/seeAlso")[0].objectType, "iri");
  assert.equal(find("http://example.org/born")[0].datatype, `${XSD}date`);
  assert.deepEqual(find(`${S}age`)[0].datatype, `${XSD}integer`);
  assert.deepEqual(find(`${S}height`).map((t) => [t.object, t.datatype]), [[
    "1.59E0",
    `${XSD}double`,
  ]]);
  assert.equal(find(`${S}alive`)[0].object, "false");
  const address = find(`${S}address`)[0];
  assert.equal(address.objectType, "blank");
  assert.ok(triples.some((t) => t.subject === address.object && t.object === "Tokyo"));
  assert.equal(find(`${RDF}first`).length, 2);
  assert.equal(find("http://example.org/unmapped")[0].object, "_:k");
  assert.ok(
    triples.every((t) => t.subject === "http://example.org/a" || t.subject.startsWith("_:")),
  );
  assert.throws(
    () => jsonLdToTriples({ "@context": "https://schema.org/", name: "x" }),
    /remote context/,
  );
});
