/** A SPARQL term can only come from the escaping helpers: raw text never passes the tag. */

import assert from "node:assert/strict";
import * as archiveModule from "../../lib/archive/mod.ts";
import { sparql } from "../../lib/archive/mod.ts";

const INJECTION = '"x" } ; DROP ALL ; SELECT * WHERE { ?s ?p ?o';

Deno.test("sparql: a term cannot be built from raw text", () => {
  assert.equal(
    (archiveModule as Record<string, unknown>).SparqlTerm,
    undefined,
    "no constructor is exported",
  );
  // The constructor of a real term must not make new ones either.
  const real = sparql.iri("http://schema.org/name");
  const Made = (real as object).constructor as new (text: string) => unknown;
  let forged: unknown;
  try {
    forged = new Made(INJECTION);
  } catch {
    forged = undefined;
  }
  if (forged !== undefined) {
    assert.throws(
      () => sparql`SELECT ?s WHERE { ?s ?p ${forged as archiveModule.SparqlTerm} }`,
      /Cannot use a/,
    );
  }
  // A look-alike object is refused, and says why.
  const lookAlike = { text: INJECTION, toString: () => INJECTION };
  assert.throws(
    () => sparql`SELECT ?s WHERE { ?s ?p ${lookAlike} }`,
    /term not made by sparql\.iri\(\) or sparql\.literal\(\)/,
  );
  // Real terms still work, alone and in arrays.
  assert.equal(
    sparql`${[real, sparql.literal("a", { lang: "en" })]}`,
    '<http://schema.org/name> "a"@en',
  );
});
