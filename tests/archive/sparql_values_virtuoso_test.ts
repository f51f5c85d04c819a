/**
 * Values as written, against a live stock Virtuoso (Debian's 7.2.5, started
 * once for the file on data the test writes): every cell tidepool's Archive
 * reads, in JSON, XML and CSV, is compared with an independent read of the
 * same query (a plain fetch and `JSON.parse` of Virtuoso's JSON answer);
 * Virtuoso's CSV-style TSV is refused with its line instead of read as
 * 5,004 rows; CONSTRUCT keeps each literal's datatype.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { Archive } from "../../lib/archive/mod.ts";
import { ProtocolError } from "../../lib/errors/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { startVirtuoso } from "../_real_servers.ts";
import { EX, valuesTurtle, XSD } from "./_virtuoso_values_data.ts";

const ROWS = 5000;
const PATH = "/api/demo/dl/books/sparql";

interface RawTerm {
  type: string;
  value: string;
  datatype?: string;
  "xml:lang"?: string;
}

/** The independent read: Virtuoso's JSON answer, parsed as it is. */
async function rawSelect(
  url: string,
  query: string,
): Promise<{ vars: string[]; rows: Record<string, RawTerm>[] }> {
  const response = await fetch(`${url}/sparql`, {
    method: "POST",
    headers: {
      accept: "application/sparql-results+json",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ query }),
  });
  assert.equal(response.status, 200);
  const doc = JSON.parse(await response.text());
  return { vars: doc.head.vars, rows: doc.results.bindings };
}

const DOUBLE_WORDS: Record<string, number> = { INF: Infinity, "-INF": -Infinity, NaN: NaN };

/**
 * Asserts that a cell holds the raw term exactly, in its column's type:
 * the text as sent in a string column, a number whose decimal text is the
 * term's, a boolean, a Date to the millisecond.
 */
function assertCell(cell: unknown, raw: RawTerm | undefined, type: string, where: string): void {
  if (raw === undefined) return assert.equal(cell, null, where);
  if (raw.type === "bnode" || raw.value.startsWith("nodeID://")) {
    return assert.equal(cell, `_:${raw.value.replace(/^nodeID:\/\//, "")}`, where);
  }
  switch (type) {
    case "string":
      return assert.equal(cell, raw.value, where);
    case "number": {
      const word = DOUBLE_WORDS[raw.value];
      if (word !== undefined) return assert.ok(Object.is(cell, word), where);
      // Virtuoso writes numbers without leading zeros or exponents: the
      // number's own text, with a ".0" that JavaScript drops, is the term's.
      return assert.equal(String(cell), raw.value.replace(/\.0$/, ""), where);
    }
    case "boolean":
      return assert.equal(cell, raw.value === "1" || raw.value === "true", where);
    case "date":
      assert.ok(!/\.\d{4,}/.test(raw.value), `${where}: a Date cannot hold ${raw.value}`);
      return assert.equal((cell as Date).getTime(), Date.parse(raw.value), where);
    default:
      assert.fail(`${where}: column type ${type}`);
  }
}

/** Every cell of a table against the raw read, row by row. */
function assertTable(
  table: ColumnTable,
  raw: { vars: string[]; rows: Record<string, RawTerm>[] },
): void {
  assert.deepEqual(table.columnNames().slice(0, raw.vars.length), raw.vars);
  assert.equal(table.numRows(), raw.rows.length);
  const types = columnTypes(table);
  for (const name of raw.vars) {
    const cells = table.array(name) as unknown[];
    raw.rows.forEach((row, r) => assertCell(cells[r], row[name], types[name], `${name}[${r}]`));
  }
}

const VALUES_QUERY = `PREFIX ex: <${EX}>
SELECT ?dec ?small ?bool ?dbl ?when ?whenMs ?int ?blank ?label ?text WHERE {
  { ex:a ex:dec ?dec } UNION { ex:a ex:small ?small } UNION { ex:a ex:bool ?bool }
  UNION { ex:a ex:dbl ?dbl } UNION { ex:a ex:when ?when } UNION { ex:a ex:whenMs ?whenMs }
  UNION { ex:a ex:int ?int } UNION { ex:a ex:blank ?blank } UNION { ex:a ex:label ?label }
  UNION { ex:a ex:text ?text }
} ORDER BY ?dec ?small ?bool ?dbl ?when ?whenMs ?int ?blank ?label ?text`;

const ROWS_QUERY = `PREFIX ex: <${EX}>
SELECT ?r ?text ?dec ?part WHERE { ?r ex:text ?text ; ex:dec ?dec ; ex:part ?part } ORDER BY ?r`;

Deno.test("Virtuoso: every value read as written, against a plain JSON read", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const data = `${dir}/values.ttl`;
    await Deno.writeTextFile(data, valuesTurtle(ROWS));
    await using server = await startVirtuoso(data, { aliases: [PATH] });
    const archive = new Archive(server.url, {
      account: "demo",
      db: "books",
      progress: false,
      retry: false,
    });
    const sparql = (query: string, format?: "json" | "xml" | "csv" | "tsv") =>
      archive.sparql(query, { service: "dl", format, lang: true });

    await t.step(
      "exact decimals, booleans 1/0, nodeID:// blanks, tagged and escaped text",
      async () => {
        const raw = await rawSelect(server.url, VALUES_QUERY);
        // The answer has the shapes this test is about.
        assert.ok(raw.rows.some((row) => row.dec?.type === "typed-literal"));
        assert.ok(raw.rows.some((row) => row.bool?.value === "1"));
        assert.ok(raw.rows.some((row) => row.blank?.value.startsWith("nodeID://")));
        for (const format of ["json", "xml"] as const) {
          const table = await sparql(VALUES_QUERY, format) as ColumnTable;
          assertTable(table, raw);
          const types = columnTypes(table);
          assert.deepEqual(
            [types.dec, types.small, types.bool, types.dbl, types.when, types.whenMs, types.int],
            ["string", "number", "boolean", "number", "string", "date", "number"],
            format,
          );
          assert.ok((table.array("dec") as string[]).includes("9007199254741993"), format);
          const langs = (table.array("label_lang") as (string | null)[]).filter((l) => l !== null);
          assert.deepEqual(
            langs,
            raw.rows.filter((row) => row.label).map((row) => row.label["xml:lang"]),
          );
        }
      },
    );

    const rows = await rawSelect(server.url, ROWS_QUERY);
    assert.equal(rows.rows.length, ROWS);

    await t.step("5,000 rows with tabs, line breaks, quotes: JSON, XML and CSV whole", async () => {
      for (const format of ["json", "xml", "csv"] as const) {
        const table = await sparql(ROWS_QUERY, format) as ColumnTable;
        assertTable(table, rows);
        assert.equal(columnTypes(table).dec, "string", format);
      }
    });

    await t.step("Virtuoso's CSV-style TSV is refused at line 1, never read as rows", async () => {
      const error = await sparql(ROWS_QUERY, "tsv").catch((e) => e);
      assert.ok(error instanceof ProtocolError, String(error));
      assert.match(
        error.message,
        /TSV results: line 1: the column name "\\"r\\"" is not a variable/,
      );
      assert.match(error.hint ?? "", /\{ format: "json" \}/);
    });

    await t.step("CONSTRUCT keeps each literal's datatype, blank nodes blank", async () => {
      const graph = await archive.sparql(
        `PREFIX ex: <${EX}> CONSTRUCT { ex:a ?p ?o } WHERE { ex:a ?p ?o }`,
        { service: "dl" },
      ) as ColumnTable;
      const raw = await rawSelect(
        server.url,
        `PREFIX ex: <${EX}> SELECT ?p ?o WHERE { ex:a ?p ?o }`,
      );
      const key = (p: string, o: string, type: string, datatype: string | null) =>
        `${p} ${type === "blank" ? "_:" : o} ${datatype}`;
      // Virtuoso's JSON writes xsd:boolean 1/0, its graphs true/false: one value.
      const canonical = (o: RawTerm) =>
        o.datatype === `${XSD}boolean`
          ? (o.value === "1" ? "true" : o.value === "0" ? "false" : o.value)
          : o.value;
      const fromRaw = raw.rows.map(({ p, o }) =>
        key(
          p.value,
          canonical(o),
          o.type === "bnode" ? "blank" : o.type === "uri" ? "iri" : "literal",
          o.type === "bnode" || o.type === "uri"
            ? null
            : o["xml:lang"]
            ? "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
            : o.datatype ?? `${XSD}string`,
        )
      ).sort();
      const fromArchive = (graph.objects() as Record<string, string>[]).map((row) =>
        key(
          row.predicate,
          row.object,
          row.objectType,
          row.lang ? "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString" : row.datatype,
        )
      ).sort();
      assert.deepEqual(fromArchive, fromRaw);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
