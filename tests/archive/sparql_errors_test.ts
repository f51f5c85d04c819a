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

Deno.test("an undeclared prefix is never refused where a server may know it", async () => {
  await withSandbox(async (sandbox) => {
    const { archive, warnings } = archiveOn(sandbox);
    // Well-known prefixes (Virtuoso predeclares xsd, rdf, rdfs, owl, dc, foaf, skos...) are declared.
    for (const prefix of ["schema", "dcterms", "xsd", "rdfs", "skos"]) {
      const query =
        `SELECT ?s WHERE { ?s ${prefix}:x ?y . ?s <http://schema.org/name> ?n } LIMIT 1`;
      const rows = await archive.sparql(query);
      assert.equal(rows.numRows(), 0, prefix);
    }
    const named = await archive.sparql("SELECT ?s WHERE { ?s schema:name ?n } LIMIT 1");
    assert.equal(named.numRows(), 1);
    assert.equal(warnings.length, 0, warnings.join("\n"));
    // An unknown one is sent with a warning: the server has the last word.
    const before = sandbox.requests.length;
    const other = await archive.sparql("SELECT * WHERE { ?s zz:p ?o }").catch((e) => e);
    assert.equal(sandbox.requests.length, before + 1, "sent, not refused locally");
    assert.ok(!(other instanceof SparqlSyntaxError));
    assert.ok(warnings.some((w) => /prefix zz: without declaring it/.test(w)), warnings.join("\n"));
    // Paging needs the whole parse: there it is refused where it is used, with the PREFIX line.
    const paged = await archive.sparqlAll(
      "PREFIX ex: <http://example.org/>\nSELECT ?s WHERE {\n  ?s ex:a ?o ; zz:x ?y }",
    ).catch((e) => e);
    assert.ok(paged instanceof SparqlSyntaxError);
    assert.equal(paged.line, 3);
    assert.equal(paged.column, 16);
    assert.match(paged.hint ?? "", /PREFIX zz: <\.\.\.>/);
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
