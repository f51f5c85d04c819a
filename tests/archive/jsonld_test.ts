import assert from "node:assert/strict";
import { jsonLdToTriples } from "../../lib/sparql/_jsonld.ts";
import { HttpClient } from "../../lib/http/client.ts";
import { NotFoundError, ProtocolError } from "../../lib/errors/errors.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const S = "http://schema.org/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

Deno.test("JSON-LD reader: prefixes, terms, coercion, nested blank nodes, literals, lists", async () => {
  const triples = await jsonLdToTriples({
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
  assert.equal(find("http://example.org/unmapped")[0].objectType, "blank");
  assert.ok(
    triples.every((t) => t.subject === "http://example.org/a" || t.subject.startsWith("_:")),
  );
});

Deno.test("JSON-LD: the usual https://schema.org context is read offline", async () => {
  // No client is given: any request would be an error.
  const triples = await jsonLdToTriples({
    "@context": "https://schema.org",
    "@id": "http://example.org/map",
    "@type": "Map",
    name: "Map of Kyoto",
    url: "http://example.org/map.html",
    dateCreated: { "@value": "1910", "@type": "xsd:gYear" },
  });
  const by = (p: string) => triples.find((t) => t.predicate === p)!;
  assert.equal(by(`${RDF}type`).object, `${S}Map`);
  assert.deepEqual([by(`${S}name`).object, by(`${S}name`).datatype], [
    "Map of Kyoto",
    `${XSD}string`,
  ]);
  assert.equal(by(`${S}url`).objectType, "iri", "url is a link in schema.org's context");
  assert.equal(by(`${S}dateCreated`).datatype, `${XSD}gYear`);
  for (const url of ["http://schema.org/", "https://schema.org/"]) {
    const [t] = await jsonLdToTriples({ "@context": url, "@id": "http://x/a", name: "a" });
    assert.equal(t.predicate, `${S}name`);
  }
});

Deno.test("JSON-LD: another remote context is fetched through lib/http, retried", async () => {
  let requests = 0;
  const server = serveLocal((request) => {
    requests++;
    if (new URL(request.url).pathname !== "/ctx.jsonld") return new Response("", { status: 404 });
    if (requests === 1) {
      return new Response("busy", { status: 503, headers: { "retry-after": "0" } });
    }
    return Response.json({ "@context": { ex: "http://example.org/", title: "ex:title" } });
  });
  try {
    const http = new HttpClient(server.url, {
      progress: false,
      retry: { retries: 2, baseDelayMs: 1 },
    });
    const doc = { "@context": `${server.url}/ctx.jsonld`, "@id": "http://x/a", title: "T" };
    const triples = await jsonLdToTriples(doc, { http });
    assert.deepEqual(triples.map((t) => [t.predicate, t.object]), [[
      "http://example.org/title",
      "T",
    ]]);
    assert.equal(requests, 2, "the 503 was retried");
    const missing = await jsonLdToTriples({ ...doc, "@context": `${server.url}/none` }, { http })
      .catch((e) => e);
    assert.ok(missing instanceof NotFoundError, String(missing));
    // Without a client a remote context is a clear error, never a silent request.
    const offline = await jsonLdToTriples(doc).catch((e) => e);
    assert.ok(offline instanceof ProtocolError);
    assert.match(offline.message, /remote context/);
  } finally {
    await server.close();
  }
});

Deno.test("JSON-LD: invalid JSON-LD is a ProtocolError; dropped values warn, or fail when strict", async () => {
  const invalid = await jsonLdToTriples({ "@context": { "@vocab": 5 }, a: 1 }).catch((e) => e);
  assert.ok(invalid instanceof ProtocolError, String(invalid));
  assert.match(invalid.message, /^Cannot read the JSON-LD document: /);
  const lossy = { "@id": "http://x/a", "not-an-iri": "dropped", "http://x/p": "kept" };
  const warnings: string[] = [];
  const http = new HttpClient("http://127.0.0.1:9", {
    progress: false,
    warn: (m) => warnings.push(m),
  });
  assert.equal((await jsonLdToTriples(lossy, { http })).length, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /1 values were dropped .*invalid property.*strict: true/);
  const strict = await jsonLdToTriples(lossy, { http, strict: true }).catch((e) => e);
  assert.ok(strict instanceof ProtocolError, String(strict));
  assert.equal(strict.code, "unknownShape");
  assert.match(strict.message, /did not expand into an absolute IRI/);
});
