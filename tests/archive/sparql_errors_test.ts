import assert from "node:assert/strict";
import { SparqlSyntaxError } from "../../lib/archive/mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

Deno.test("a syntax error shows the line with a caret under the column, and no token list", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const before = sandbox.requests.length;
    const error = await archive.sparql("SELECT ?s\nWHERE {\n  ?s ?p ?o .\n  FILTER(?o = )\n}")
      .catch((e) => e);
    assert.ok(error instanceof SparqlSyntaxError);
    assert.equal(
      error.message,
      [
        "SPARQL syntax error at line 4, column 15: unexpected ')'; nothing was sent",
        "  4 |   FILTER(?o = )",
        "    |               ^",
        "What to do: Fix the query at that position; values belong in the sparql`...` template tag",
      ].join("\n"),
    );
    assert.doesNotMatch(error.message, /Expecting|IRIREF|characters\)/);
    assert.equal(sandbox.requests.length, before);
  });
});

Deno.test("an undeclared prefix is named at its use, with the PREFIX line for known vocabularies", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const known = {
      schema: "http://schema.org/",
      dcterms: "http://purl.org/dc/terms/",
      rico: "https://www.ica.org/standards/RiC/ontology#",
      skos: "http://www.w3.org/2004/02/skos/core#",
      rdfs: "http://www.w3.org/2000/01/rdf-schema#",
    };
    for (const [prefix, iri] of Object.entries(known)) {
      const query =
        `PREFIX ex: <http://example.org/>\nSELECT ?s WHERE {\n  ?s ex:a ?o ; ${prefix}:x ?y }`;
      const error = await archive.sparql(query).catch((e) => e);
      assert.ok(error instanceof SparqlSyntaxError);
      assert.equal(error.line, 3);
      assert.equal(error.column, 16);
      assert.match(error.message, new RegExp(`the prefix ${prefix}: is not declared`));
      assert.match(error.message, /\n {4}\| {16}\^\n/);
      assert.equal(error.hint, `Add this line at the top of the query: PREFIX ${prefix}: <${iri}>`);
    }
    const other = await archive.sparql("SELECT * WHERE { ?s zz:p ?o }").catch((e) => e);
    assert.equal(other.column, 21);
    assert.match(other.hint, /PREFIX zz: <\.\.\.>/);
    // Declared, the same vocabulary runs.
    const rows = await archive.sparql(
      "PREFIX schema: <http://schema.org/>\nSELECT ?s WHERE { ?s schema:name ?n } LIMIT 1",
    );
    assert.equal(rows.numRows(), 1);
  });
});

Deno.test("an empty or non-text query is refused before any request", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const before = sandbox.requests.length;
    for (const query of ["", "  \n ", 5, undefined]) {
      const error = await archive.sparql(query as string).catch((e) => e);
      assert.ok(error instanceof TidepoolError, String(error));
      assert.match(
        error.message,
        /Cannot send an empty SPARQL query|Invalid SPARQL query: expected text/,
      );
    }
    const pages = archive.sparqlPages("").next().catch((e) => e);
    assert.match(String((await pages).message), /Cannot send an empty SPARQL query/);
    assert.equal(sandbox.requests.length, before);
  });
});
