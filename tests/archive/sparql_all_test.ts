import assert from "node:assert/strict";
import { BEYOND_HOLD_MS, type HoldEnd, holdRequest, settled } from "../_events.ts";
import type { ColumnTable } from "arquero";
import { writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { query } from "../../lib/dataset/query.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { SparqlServerError } from "../../lib/sparql/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

/** Every triple of the first ten subjects (a hundred-odd rows, mixed types). */
const TRIPLES =
  "SELECT ?s ?p ?o WHERE { { SELECT DISTINCT ?s WHERE { ?s a ?c } ORDER BY ?s LIMIT 10 } ?s ?p ?o }";
const FEW = "{ SELECT DISTINCT ?s WHERE { ?s a ?c } ORDER BY ?s LIMIT 12 }";

/** Rows as sorted JSON lines, to compare row sets whatever their order. */
function rowSet(table: ColumnTable): string[] {
  return (table.objects() as Record<string, unknown>[])
    .map((row) => JSON.stringify(row, (_k, v) => typeof v === "bigint" ? `${v}` : v)).sort();
}

Deno.test("sparqlAll reads every row past a silent row cap, checked against a COUNT", async () => {
  await withSandbox(async (sandbox) => {
    const { archive, warnings } = archiveOn(sandbox);
    const reference = await archive.sparql(TRIPLES) as ColumnTable;
    assert.ok(reference.numRows() > 60, `enough triples to page: ${reference.numRows()}`);
    assert.ok(reference.numRows() < 400, `few enough for a test: ${reference.numRows()}`);
    sandbox.faults.sparqlRowCap = 7;
    const capped = await archive.sparql(TRIPLES) as ColumnTable;
    assert.equal(capped.numRows(), 7, "one query gets the capped answer");
    assert.ok(
      warnings.some((w) => /answered 7 rows, its cap \(X-SPARQL-MaxRows: 7\)/.test(w)),
      `a cut answer says so: ${warnings.join("\n")}`,
    );

    const all = await archive.sparqlAll(TRIPLES, { pageSize: 20 });
    assert.equal(all.numRows(), reference.numRows());
    assert.deepEqual(rowSet(all), rowSet(reference));
    assert.ok(
      warnings.some((w) => /returned 7 rows where 20 were asked, though COUNT says \d+/.test(w)),
      warnings.join("\n"),
    );
    assert.deepEqual(columnTypes(all), columnTypes(reference));

    // Without the COUNT, X-SPARQL-MaxRows still tells the cap from the end.
    const blind = await archive.sparqlAll(TRIPLES, { pageSize: 20, count: false });
    assert.deepEqual(rowSet(blind), rowSet(reference));
    assert.ok(warnings.some((w) => /it sent X-SPARQL-MaxRows: 7/.test(w)), warnings.join("\n"));
  });
});

Deno.test("sparqlAll pages past a sorted-window bound the sandbox keeps as Virtuoso does", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { retry: { baseDelayMs: 1 } });
    const reference = await archive.sparql(TRIPLES) as ColumnTable;
    sandbox.faults.sparqlMaxSortedTopRows = 15;
    const before = sandbox.requests.length;
    const deep = await archive.sparql(`${TRIPLES} ORDER BY ?s ?p ?o OFFSET 10 LIMIT 10`)
      .catch((e) => e);
    assert.ok(deep instanceof SparqlServerError, String(deep));
    assert.equal(deep.code, "SR353");
    assert.equal(deep.status, 500);
    assert.equal(sandbox.requests.length, before + 1, "a refused window is sent once");
    const all = await archive.sparqlAll(TRIPLES, { pageSize: 10 });
    assert.deepEqual(rowSet(all), rowSet(reference));
  });
});

Deno.test("sparqlAll keeps the query's ORDER BY, LIMIT and OFFSET", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const ordered =
      `SELECT ?s ?o WHERE { ${FEW} ?s <http://schema.org/name> ?o } ORDER BY DESC(?o) ?s`;
    const reference = await archive.sparql(ordered) as ColumnTable;
    const paged = await archive.sparqlAll(ordered, { pageSize: 3 });
    assert.deepEqual(paged.objects(), reference.objects(), "same rows in the query's order");

    const window = await archive.sparqlAll(`${ordered} LIMIT 8 OFFSET 2`, { pageSize: 3 });
    assert.deepEqual(window.objects(), reference.objects().slice(2, 10));

    const star = await archive.sparqlAll(
      `SELECT * WHERE { ${FEW} ?s <http://schema.org/name> ?o }`,
      {
        pageSize: 4,
      },
    );
    assert.equal(star.numRows(), reference.numRows());
  });
});

Deno.test("sparqlPages stream into a Parquet dataset that DuckDB counts in full", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const reference = await archive.sparql(TRIPLES) as ColumnTable;
    sandbox.faults.sparqlRowCap = 9;
    const dir = await Deno.makeTempDir();
    try {
      const summary = await writeDataset(archive.sparqlPages(TRIPLES, { pageSize: 25 }), dir, {
        flushRows: 30,
      });
      assert.equal(summary.rows, reference.numRows());
      assert.ok(summary.files.length > 1, "written in several flushes");
      const counted = await query(
        "SELECT count(*)::INTEGER AS n, count(DISTINCT (s, p, o))::INTEGER AS distinct_rows FROM t",
        { views: { t: dir } },
      );
      assert.deepEqual(counted.objects(), [{
        n: reference.numRows(),
        distinct_rows: new Set(rowSet(reference)).size,
      }]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("sparqlAll refuses what it cannot page", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    await assert.rejects(
      archive.sparqlAll("ASK { ?s ?p ?o }"),
      /Cannot page a ASK query: only SELECT results are paged/,
    );
    await assert.rejects(
      archive.sparqlAll(TRIPLES, { pageSize: 0 }),
      /Cannot page a SPARQL query by 0 rows/,
    );
    // maxRows counts rows, not the pages the engine hands on.
    await assert.rejects(
      archive.sparqlAll(TRIPLES, { pageSize: 10, maxRows: 25 }),
      /Stopped SPARQL SELECT at the cap of 25 rows \(maxRows\)/,
    );
    assert.equal(
      (await archive.sparqlAll(TRIPLES, { pageSize: 10, maxRows: 1000 })).numRows() > 25,
      true,
    );
  });
});

Deno.test("sparqlAll: a per-call signal cancels the page in flight", async () => {
  await withSandbox(async (sandbox) => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const ends: HoldEnd[] = [];
    let pages = 0;
    const slow: typeof fetch = async (input, init) => {
      const url = new URL(new Request(input, init).url);
      // The COUNT and the first page answer at once; the second page is held
      // until cancelled (or the bound, after which nothing is held).
      if (
        /OFFSET/i.test(url.searchParams.get("query") ?? "") && ++pages > 1 &&
        !ends.includes("elapsed")
      ) {
        seen.push(init!.signal!);
        queueMicrotask(() => controller.abort(new Error("stopped by the user")));
        await holdRequest(init!.signal, ends);
      }
      return fetch(input, init);
    };
    const { archive } = archiveOn(sandbox, { fetch: slow, timeoutMs: BEYOND_HOLD_MS });
    const error = await archive.sparqlAll(TRIPLES, { pageSize: 20, signal: controller.signal })
      .catch((e) => e);
    assert.equal(error.message, "stopped by the user");
    assert.equal(seen.length, 1);
    assert.ok(seen[0].aborted, "the request in flight was cancelled");
    await settled();
    assert.deepEqual(ends, ["aborted"], "ended by the abort, not by waiting");
  });
});
