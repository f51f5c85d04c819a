/**
 * Values as written, on answers recorded from a real Virtuoso 7.2.5
 * (tests/fixtures/virtuoso/README.md): exact decimals, Virtuoso's JSON and
 * XML shapes (typed-literal, booleans 1/0, nodeID:// blank nodes), its
 * CSV-style TSV refused with its line, its CSV read whole, and its RDF/XML
 * graphs read like its N-Triples. The same reads against the live server are
 * in sparql_values_virtuoso_test.ts.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { Archive, readSparqlResults } from "../../lib/archive/mod.ts";
import { ProtocolError } from "../../lib/errors/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { rowDecimal, rowText, XSD } from "./_virtuoso_values_data.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const DIR = new URL("../fixtures/virtuoso/", import.meta.url);
const fixture = (name: string) => Deno.readTextFileSync(new URL(name, DIR));

/** The bound values of a column, in order. */
function bound(table: ColumnTable, name: string): unknown[] {
  return (table.array(name) as unknown[]).filter((value) => value !== null);
}

async function read(name: string, format: "json" | "xml"): Promise<ColumnTable> {
  const result = await readSparqlResults(fixture(name), { format, lang: true, datatype: true });
  assert.ok(typeof result !== "boolean");
  return result;
}

for (const [name, format] of [["values.srj", "json"], ["values.srx", "xml"]] as const) {
  Deno.test(`Virtuoso ${format} results: every value as written (${name})`, async () => {
    const table = await read(name, format);
    const types = columnTypes(table);
    // Decimals a double cannot hold keep the column as the text sent.
    assert.equal(types.dec, "string");
    assert.deepEqual(bound(table, "dec"), ["0.1", "123456789012345.678", "9007199254741993"]);
    assert.deepEqual(bound(table, "dec_datatype"), Array(3).fill(`${XSD}decimal`));
    // Decimals a double holds exactly are numbers.
    assert.equal(types.small, "number");
    assert.deepEqual(bound(table, "small"), [-0.5, 1.25]);
    // Virtuoso's booleans: "0"/"1" in JSON, false/true in XML.
    assert.equal(types.bool, "boolean");
    assert.deepEqual(bound(table, "bool"), [false, true]);
    assert.equal(types.dbl, "number");
    assert.deepEqual(bound(table, "dbl"), [1000, -Infinity, Infinity, NaN]);
    // A time past the millisecond cannot be a Date: the column keeps the text.
    assert.equal(types.when, "string");
    assert.deepEqual(bound(table, "when"), [
      "2024-05-01T10:00:00.123456+02:00",
      "2024-05-01T10:00:00Z",
    ]);
    assert.equal(types.whenMs, "date");
    assert.deepEqual(
      bound(table, "whenMs").map((d) => (d as Date).toISOString()),
      ["2024-05-01T08:00:00.125Z", "2024-05-01T10:00:00.000Z"],
    );
    assert.deepEqual(bound(table, "int"), [-12, 7]);
    // nodeID://b10003 is Virtuoso's blank node.
    assert.deepEqual(bound(table, "blank"), ["_:b10003"]);
    assert.deepEqual(bound(table, "blank_datatype"), []);
    assert.deepEqual(bound(table, "label"), ["cat", "chat"]);
    assert.deepEqual(bound(table, "label_lang"), ["en-gb", "fr"]);
    assert.deepEqual(bound(table, "text"), [rowText(-1)]);
  });
}

Deno.test("Virtuoso's CSV-style TSV is refused with its line, never read as data", async () => {
  for (const name of ["values.tsv", "rows.tsv"]) {
    const error = await readSparqlResults(fixture(name), { format: "tsv" }).catch((e) => e);
    assert.ok(error instanceof ProtocolError, `${name}: ${error}`);
    assert.match(error.message, /TSV results: line 1: the column name "\\?"?.*is not a variable/);
    assert.match(error.hint ?? "", /\{ format: "json" \}/);
  }
});

Deno.test("SPARQL TSV: a row with more or fewer cells, or a cell that is no term, is refused", async () => {
  const cases: [string, RegExp][] = [
    ['?a\t?b\n"x"\n', /line 2: 1 cells for 2 variables/],
    ['?a\t?b\n"x"\t"y"\t"z"\n', /line 2: 3 cells for 2 variables/],
    ['?a\n"cut\n', /line 2: the cell "\\"cut" is not an RDF term/],
    ["?a\nplain words\n", /line 2: the cell "plain words" is not an RDF term/],
    ['?a\n<http://x>\n"ok"@en\nnodeID://b1\n', /line 4: the cell "nodeID:\/\/b1"/],
  ];
  for (const [text, message] of cases) {
    const error = await readSparqlResults(text, { format: "tsv" }).catch((e) => e);
    assert.ok(error instanceof ProtocolError, JSON.stringify(text));
    assert.match(error.message, message);
  }
  // Escaped tabs and line breaks, typed and tagged literals, IRIs and blank nodes read.
  const table = await readSparqlResults(
    `?t\t?n\t?i\n"a\\tb\\nc \\"q\\""@en\t"9007199254741993"^^<${XSD}decimal>\t<http://x/y>\n` +
      `\t1.5\t_:b1\n`,
    { format: "tsv" },
  ) as ColumnTable;
  assert.deepEqual(table.array("t"), ['a\tb\nc "q"', null]);
  assert.deepEqual(table.array("n"), ["9007199254741993", "1.5"]);
  assert.deepEqual(table.array("i"), ["http://x/y", "_:b1"]);
});

Deno.test("Virtuoso's CSV keeps every row whole: quoted tabs, line breaks and quotes", async () => {
  const rows = await readSparqlResults(fixture("rows.csv"), { format: "csv" }) as ColumnTable;
  assert.equal(rows.numRows(), 20);
  assert.deepEqual(rows.array("text"), Array.from({ length: 20 }, (_, i) => rowText(i)));
  assert.deepEqual(rows.array("dec"), Array.from({ length: 20 }, (_, i) => rowDecimal(i)));
  assert.ok((rows.array("part") as string[]).every((p) => /^_:b\d+$/.test(p)));
  const values = await readSparqlResults(fixture("values.csv"), { format: "csv" }) as ColumnTable;
  assert.equal(values.numRows(), 21);
  assert.deepEqual(bound(values, "blank"), ["_:b10003"]);
  assert.deepEqual(bound(values, "text"), [rowText(-1)]);
});

/** An Archive whose SPARQL path is the test server's. */
function archiveAt(server: Deno.HttpServer<Deno.NetAddr>): Archive {
  return new Archive(`http://127.0.0.1:${server.addr.port}`, {
    account: "demo",
    db: "books",
    progress: false,
    retry: false,
  });
}

/** Serves the recorded graph in the one type an Accept header asks for, as Virtuoso would. */
function graphServer(
  bodies: [string, string][] = [
    ["application/n-triples", fixture("graph.nt")],
    ["application/rdf+xml", fixture("graph.rdf")],
  ],
): {
  server: Deno.HttpServer<Deno.NetAddr>;
  accepts: string[];
  only: { type: string };
} {
  const accepts: string[] = [];
  const only = { type: "" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const accept = request.headers.get("accept") ?? "";
    accepts.push(accept);
    const found = bodies.find(([type]) => accept.includes(type) && only.type === type);
    if (!found) return new Response("not acceptable", { status: 406 });
    return new Response(found[1], { headers: { "content-type": `${found[0]}; charset=UTF-8` } });
  });
  return { server, accepts, only };
}

Deno.test("CONSTRUCT answered in RDF/XML reads like the same graph in N-Triples", async () => {
  const { server, accepts, only } = graphServer();
  try {
    const tables: ColumnTable[] = [];
    const archive = archiveAt(server);
    for (const type of ["application/n-triples", "application/rdf+xml"]) {
      only.type = type;
      tables.push(
        await archive.sparql(fixture("graph.rq"), { service: "dl" }) as ColumnTable,
      );
    }
    assert.ok(accepts.every((accept) => accept.includes("application/rdf+xml")));
    const rows = (table: ColumnTable) =>
      (table.objects() as Record<string, string>[]).map((row) =>
        [row.predicate, row.objectType === "blank" ? "_:" : row.object, row.datatype, row.lang]
          .join(" ")
      ).sort();
    assert.equal(tables[1].numRows(), 22);
    assert.deepEqual(rows(tables[1]), rows(tables[0]));
    const doubles = tables[1].objects().filter((row) =>
      (row as Record<string, string>).object === "1000.0"
    );
    assert.equal((doubles[0] as Record<string, string>).datatype, `${XSD}double`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a value that would not convert exactly keeps its column as the text sent", async () => {
  const lit = (value: string, type: string) => ({
    type: "literal",
    value,
    datatype: `${XSD}${type}`,
  });
  const columns: Record<string, [string, string, unknown][]> = {
    // [lexical, datatype, what the column holds when it is the only value]
    hex: [["0x10", "integer", "0x10"], ["16", "integer", "16"]],
    word: [["yes", "boolean", "yes"], ["true", "boolean", "true"]],
    notNumber: [["abc", "double", "abc"], ["1.5", "double", "1.5"]],
    bigInMix: [["9007199254740993", "integer", "9007199254740993"], ["0.5", "decimal", "0.5"]],
    longDecimal: [["0.12345678901234567", "decimal", "0.12345678901234567"], [
      "0.1",
      "decimal",
      "0.1",
    ]],
    farYear: [["12345-01-01", "date", "12345-01-01"], ["2024-01-01", "date", "2024-01-01"]],
    emptyNumber: [["", "decimal", ""], ["2", "decimal", "2"]],
    // Exact values stay typed: leading zeros, a sign, trailing zeros, exponents.
    exact: [["+007", "integer", 7], ["1.50", "decimal", 1.5]],
    exactLong: [["1.0000000000000000", "decimal", 1], ["-00000000000000012.5", "decimal", -12.5]],
    doubles: [["1.0E3", "double", 1000], [" 0.1000000000000000055511151231257827 ", "double", 0.1]],
  };
  const vars = Object.keys(columns);
  const bindings = [0, 1].map((row) =>
    Object.fromEntries(vars.map((name) => {
      const [value, type] = columns[name][row];
      return [name, lit(value, type)];
    }))
  );
  const table = await readSparqlResults(
    JSON.stringify({ head: { vars }, results: { bindings } }),
    { format: "json" },
  ) as ColumnTable;
  const types = columnTypes(table);
  for (const name of vars) {
    const expected = columns[name].map(([, , value]) => value);
    assert.deepEqual(table.array(name), expected, name);
    assert.equal(types[name], typeof expected[0] === "number" ? "number" : "string", name);
  }
});

Deno.test("the sandbox serves CONSTRUCT and DESCRIBE as RDF/XML when asked, as Virtuoso does", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const endpoint = `${sandbox.url}/api/shinano/dl/letters/sparql`;
    const query = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 30";
    // SPARQLWrapper's Accept for graphs names RDF/XML first.
    const response = await fetch(`${endpoint}?${new URLSearchParams({ query })}`, {
      headers: { accept: "application/rdf+xml" },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/rdf\+xml/);
    const body = await response.text();
    assert.match(body, /<rdf:RDF/);
    const describe = await fetch(
      `${endpoint}?${new URLSearchParams({ query: "DESCRIBE ?s WHERE { ?s ?p ?o } LIMIT 1" })}`,
      { headers: { accept: "application/rdf+xml" } },
    );
    assert.equal(describe.status, 200);
    assert.match(await describe.text(), /<rdf:RDF/);
    // The Archive reads the same graph from N-Triples and from that RDF/XML alike.
    const triples = await archive.sparql(query, { service: "dl" }) as ColumnTable;
    assert.equal(triples.numRows(), 30);
    const { server, only } = graphServer([["application/rdf+xml", body]]);
    try {
      only.type = "application/rdf+xml";
      const fromXml = await archiveAt(server).sparql(query, { service: "dl" }) as ColumnTable;
      const rows = (table: ColumnTable) =>
        (table.objects() as Record<string, string>[]).map((row) =>
          [row.subject, row.predicate, row.object, row.datatype, row.lang].join(" ")
        ).sort();
      assert.deepEqual(rows(fromXml), rows(triples));
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("a malformed RDF/XML answer is a ProtocolError, not an empty table", async () => {
  const cut = fixture("graph.rdf").slice(0, 600);
  const { server, only } = graphServer([["application/rdf+xml", cut]]);
  try {
    only.type = "application/rdf+xml";
    const error = await archiveAt(server).sparql(fixture("graph.rq"), { service: "dl" }).catch((
      e,
    ) => e);
    assert.ok(error instanceof ProtocolError, String(error));
    assert.match(error.message, /Cannot read the RDF\/XML answer/);
  } finally {
    await server.shutdown();
  }
});
