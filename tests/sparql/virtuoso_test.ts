/**
 * tidepool against a stock Virtuoso 7 at Debian's defaults (ResultSetMaxRows
 * and MaxSortedTopRows 10,000), on 27,000 rows the test writes: every row
 * and cell of a read past the cap against an independent reader (plain
 * fetch and JSON.parse), a cut single read reported, each deterministic
 * error sent once, and the command line on a plain endpoint.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { ColumnTable } from "arquero";
import { Archive, SparqlEndpoint, SparqlServerError } from "../../mod.ts";
import { startVirtuoso } from "../_real_servers.ts";
import { runTidepool } from "../cli/_run_cli.ts";

const ROWS = 27_000;
const EX = "http://example.org/";
const QUERY = `SELECT ?s ?n ?label WHERE { ?s <${EX}n> ?n ; <${EX}label> ?label }`;

/** 27,000 subjects, each with an integer and a labelled string (some non-ASCII). */
async function writeData(dir: string): Promise<string> {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const s = `<${EX}item/${String(i).padStart(6, "0")}>`;
    lines.push(
      `${s} <${EX}n> "${(i * 7919) % 100_003}"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
    );
    lines.push(`${s} <${EX}label> "item ${i} ${i % 13 === 0 ? "ä東" : "x"}" .`);
  }
  const file = join(dir, "data.nt");
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  return file;
}

/** The rows as the server sends them, read without tidepool: windows of the ordered query. */
async function independentRows(endpoint: string): Promise<string[]> {
  const rows: string[] = [];
  for (let offset = 0;; offset += 5_000) {
    const query =
      `SELECT ?s ?n ?label WHERE { { ${QUERY} ORDER BY ?s } } OFFSET ${offset} LIMIT 5000`;
    const url = `${endpoint}?query=${encodeURIComponent(query)}`;
    const answer = await fetch(url, { headers: { accept: "application/sparql-results+json" } });
    assert.equal(answer.status, 200);
    const body = JSON.parse(await answer.text()) as {
      results: { bindings: Record<string, { value: string }>[] };
    };
    for (const b of body.results.bindings) {
      rows.push(`${b.s.value}\t${b.n.value}\t${b.label.value}`);
    }
    if (body.results.bindings.length < 5_000) return rows;
  }
}

const rowsOf = (table: ColumnTable): string[] =>
  (table.objects() as { s: string; n: number; label: string }[]).map((r) =>
    `${r.s}\t${r.n}\t${r.label}`
  );

Deno.test("a stock Virtuoso: reads past 10,000 rows, cut reads, errors sent once, the CLI", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const data = await writeData(dir);
    await using server = await startVirtuoso(data, { aliases: ["/api/demo/dl/books/sparql"] });
    const endpointUrl = `${server.url}/sparql`;
    const expected = await independentRows(endpointUrl);
    assert.equal(expected.length, ROWS);
    const warnings: string[] = [];
    const options = {
      progress: false as const,
      retry: { baseDelayMs: 5 },
      warn: (message: string) => warnings.push(message),
    };

    await t.step("SparqlEndpoint.all and Archive.sparqlAll read every row and cell", async () => {
      const endpoint = new SparqlEndpoint(endpointUrl, options);
      const before = await server.requests();
      const all = await endpoint.all(QUERY);
      assert.deepEqual(rowsOf(all).sort(), [...expected].sort());
      // A COUNT, then three pages of 10,000: no refused window, no retry.
      assert.equal(await server.requests() - before, 4);
      const archive = new Archive(server.url, { ...options, account: "demo", db: "books" });
      const paged = await archive.sparqlAll(QUERY, { service: "dl" });
      assert.deepEqual(rowsOf(paged), rowsOf(all), "the same rows in the same order");
    });

    await t.step("a single read the server cut says so, with the counts", async () => {
      warnings.length = 0;
      const archive = new Archive(server.url, { ...options, account: "demo", db: "books" });
      const cut = await archive.sparql(QUERY, { service: "dl" }) as ColumnTable;
      assert.equal(cut.numRows(), 10_000);
      assert.ok(
        warnings.some((w) => /answered 10000 rows, its cap \(X-SPARQL-MaxRows: 10000\)/.test(w)),
        warnings.join("\n"),
      );
      warnings.length = 0;
      const whole = await archive.sparql(`${QUERY} LIMIT 9999`, { service: "dl" }) as ColumnTable;
      assert.equal(whole.numRows(), 9_999);
      assert.deepEqual(warnings, [], "an answer under the cap is whole");
    });

    await t.step(
      "deterministic errors are sent once, with the code, the query and a fitting hint",
      async () => {
        const archive = new Archive(server.url, { ...options, account: "demo", db: "books" });
        const cases = [
          // SR185: an undefined function (500 from Virtuoso).
          {
            query: `SELECT ?s WHERE { ?s <${EX}n> ?o FILTER(<${EX}nofn>(?o)) } LIMIT 2`,
            code: /SR185/,
            fault: "function",
          },
          // SR353: an ordered window past MaxSortedTopRows (500).
          { query: `${QUERY} ORDER BY ?n OFFSET 10000 LIMIT 100`, code: /SR353/, fault: "window" },
          // The cost estimate past the server's limit (500, SQLSTATE 42000): how to narrow the query.
          {
            query: "SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c1 . ?d ?e ?f . ?g ?h ?i }",
            code: /42000/,
            fault: "timeout",
          },
          // SP030: a compile error (Virtuoso answers 400) for a prefix tidepool sends unchecked.
          { query: "SELECT ?s WHERE { ?s zz:p ?o }", code: /SP030/, fault: "syntax" },
        ];
        for (const { query, code, fault } of cases) {
          const before = await server.requests();
          const error = await archive.sparql(query, { service: "dl" }).catch((e) => e);
          assert.equal(await server.requests() - before, 1, `${query}: sent once`);
          assert.ok(error instanceof SparqlServerError, String(error));
          assert.equal(error.fault, fault);
          assert.match(error.message, code);
          assert.ok(error.details?.includes(query), "the details show the user's query");
          assert.doesNotMatch(error.hint ?? "", /try again later/);
          if (fault === "timeout") assert.match(error.hint ?? "", /LIMIT.*FILTER.*OPTIONAL/);
        }
      },
    );

    await t.step(
      "tidepool sparql on a plain endpoint, and a refused query shows the user's",
      async () => {
        const out = join(dir, "rows.csv");
        const run = await runTidepool(["sparql", endpointUrl, QUERY, "--to", out], {
          cwd: dir,
          timeoutMs: 120_000,
        });
        assert.equal(run.code, 0, run.stderr);
        const lines = (await Deno.readTextFile(out)).trimEnd().split("\n");
        assert.equal(lines.length, ROWS + 1, "a header and every row");
        // The archive's key never goes to another endpoint.
        const keyed = await runTidepool(["sparql", endpointUrl, "ASK {}", "--api-key-env", "K"], {
          cwd: dir,
          env: { K: "pub.secret-value-123" },
        });
        assert.equal(keyed.code, 2, keyed.stderr);
        assert.match(keyed.stderr, /--api-key-env is for an archive database's endpoint/);
        const bad = `SELECT ?s WHERE { ?s <${EX}n> ?o FILTER(<${EX}nofn>(?o)) }`;
        const refused = await runTidepool(["sparql", endpointUrl, bad], { cwd: dir });
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /SR185/);
        assert.ok(refused.stderr.includes(bad), refused.stderr);
        assert.doesNotMatch(
          refused.stderr,
          /tidepool_count/,
          `never the generated COUNT: ${refused.stderr}`,
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a query past Virtuoso's time limit (SR171) is sent once and says how to narrow it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = Array.from(
      { length: 25_000 },
      (_, i) => `<${EX}s${i}> <${EX}n> "${i}"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
    );
    const data = join(dir, "data.nt");
    await Deno.writeTextFile(data, lines.join("\n") + "\n");
    // MaxQueryExecutionTime of one second (Debian's is 60) so that a join of 25,000 x 25,000 times out.
    await using server = await startVirtuoso(data, { maxExecSeconds: 1 });
    const endpoint = new SparqlEndpoint(`${server.url}/sparql`, {
      progress: false,
      retry: { baseDelayMs: 5 },
    });
    const query =
      `SELECT (COUNT(*) AS ?c) WHERE { ?a <${EX}n> ?x . ?b <${EX}n> ?y FILTER(?x + ?y = 7) }`;
    const before = await server.requests();
    const error = await endpoint.query(query).catch((e) => e);
    assert.equal(await server.requests() - before, 1, "sent once, not five times");
    assert.ok(error instanceof SparqlServerError, String(error));
    assert.equal(error.code, "SR171");
    assert.equal(error.sqlState, "S1T00");
    assert.equal(error.fault, "timeout");
    assert.match(
      error.hint ?? "",
      /narrow it \(a LIMIT, a FILTER on a range of values, fewer OPTIONALs\)/,
    );
    assert.ok(error.details?.includes(query));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
