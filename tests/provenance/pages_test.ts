/**
 * The pages of Archive.searchPages, Archive.sparqlPages, harvestRecords and
 * ExpressionSearch.searchPages each carry their own provenance: their
 * number, rows, and the cache keys of their own requests, which together
 * are those of the whole call, also when two reads are consumed at once.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { type Provenance, provenance } from "../../mod.ts";
import { archiveOn, withSandbox } from "../archive/_sandbox.ts";
import { withSandbox as withExpressions } from "../expressions/_helpers.ts";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";

/** Consumes two page reads at once, a step of each together, and gives each one's pages. */
async function consumeTogether<T>(
  a: AsyncGenerator<T>,
  b: AsyncGenerator<T>,
): Promise<[T[], T[]]> {
  const pages: [T[], T[]] = [[], []];
  const done = [false, false];
  while (!done[0] || !done[1]) {
    const steps = await Promise.all([done[0] ? null : a.next(), done[1] ? null : b.next()]);
    steps.forEach((step, index) => {
      if (!step) return;
      if (step.done) done[index] = true;
      else pages[index].push(step.value);
    });
  }
  return pages;
}

/** Checks the pages' own records against the whole call's. */
function checkPages(records: Provenance[], whole: Provenance, operation: string) {
  assert.ok(records.length > 1, `${operation}: several pages`);
  records.forEach((from, index) => {
    assert.equal(from.operation, operation);
    assert.equal(from.page, index + 1);
    assert.deepEqual(from.params, whole.params);
    assert.ok(from.cacheKeys.length >= 1, `${operation} page ${index + 1} has its request`);
  });
  assert.deepEqual(records.flatMap((from) => from.cacheKeys), whole.cacheKeys, operation);
}

Deno.test("archive page reads: each page its own provenance, together the whole call's", async () => {
  await withSandbox(async (sandbox) => {
    const dir = await Deno.makeTempDir();
    try {
      // The whole calls on a client of their own: a client asks once what it keeps (a COUNT).
      const whole = archiveOn(sandbox, { cache: { dir, mode: "record" } }).archive;
      const search = { q: "Tokyo", pageSize: 5 };
      const wholeSearch = provenance(await whole.searchAll(search))!;
      const select = "SELECT ?s WHERE { ?s a ?c } ORDER BY ?s LIMIT 40";
      const wholeSparql = provenance(await whole.sparqlAll(select, { pageSize: 15 }))!;
      const { archive } = archiveOn(sandbox, { cache: { dir, mode: "record" } });

      const [searched, selected] = await consumeTogether<ColumnTable>(
        archive.searchPages(search),
        archive.sparqlPages(select, { pageSize: 15 }),
      );
      const searchRecords = searched.map((page) => provenance(page)!);
      checkPages(
        searchRecords.map((from) => ({ ...from, operation: "Archive.searchAll" })),
        wholeSearch,
        "Archive.searchAll",
      );
      assert.equal(searchRecords[0].operation, "Archive.searchPages");
      searched.forEach((page) => assert.equal(provenance(page)!.rows, page.numRows()));
      const sparqlRecords = selected.map((page) => provenance(page)!);
      checkPages(
        sparqlRecords.map((from) => ({ ...from, operation: "Archive.sparqlAll" })),
        { ...wholeSparql, params: { ...wholeSparql.params } },
        "Archive.sparqlAll",
      );
      assert.equal(sparqlRecords[0].operation, "Archive.sparqlPages");
      for (const from of sparqlRecords) assert.equal(from.asOf.endpoint, wholeSparql.asOf.endpoint);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("harvestRecords: each page states its records, requests, responseDate and newest datestamp", async () => {
  await withSandbox(async (sandbox) => {
    const dir = await Deno.makeTempDir();
    try {
      const { archive } = archiveOn(sandbox, { cache: { dir, mode: "record" } });
      const whole = provenance(await archive.harvest({ metadataPrefix: "oai_dc" }))!;
      const [pages, again] = await consumeTogether(
        archive.harvestRecords({ metadataPrefix: "oai_dc" }),
        archive.harvestRecords({ metadataPrefix: "oai_dc" }),
      );
      const records = pages.map((page) => page.provenance!);
      checkPages(
        records.map((from) => ({ ...from, operation: "OaiPmh.harvest" })),
        whole,
        "OaiPmh.harvest",
      );
      assert.deepEqual(
        again.map((page) => page.provenance!.cacheKeys),
        records.map((r) => r.cacheKeys),
      );
      pages.forEach((page) => {
        const from = page.provenance!;
        assert.equal(from.operation, "OaiPmh.harvestRecords");
        assert.equal(from.rows, page.records.length);
        assert.equal(from.asOf.responseDate, page.responseDate);
        const newest = Math.max(...page.records.map((record) => record.datestamp!.getTime()));
        assert.equal(from.asOf.latestDatestamp, new Date(newest).toISOString());
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("ExpressionSearch.searchPages: each page its own provenance, together searchAll's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withExpressions(async ({ client, sandbox }) => {
      // The whole call on a client of its own: a client checks a vocabulary once.
      const wholeClient = new ExpressionSearch(sandbox.url, {
        progress: false,
        minIntervalMs: 0,
        cache: { dir, mode: "record" },
      });
      const whole = provenance(await wholeClient.searchAll({ emotion: "喜" }, { pageSize: 100 }))!;
      const [pages, other] = await consumeTogether(
        client.searchPages({ emotion: "喜" }, { pageSize: 100 }),
        client.searchPages({ emotion: "怒" }, { pageSize: 100 }),
      );
      const records = pages.map((page) => provenance(page)!);
      checkPages(
        records.map((from) => ({ ...from, operation: "ExpressionSearch.searchAll" })),
        whole,
        "ExpressionSearch.searchAll",
      );
      pages.forEach((page) => assert.equal(provenance(page)!.rows, page.numRows()));
      assert.equal(records[0].operation, "ExpressionSearch.searchPages");
      const mine = new Set(records.flatMap((from) => from.cacheKeys));
      const theirs = other.flatMap((page) => provenance(page)!.cacheKeys);
      assert.ok(theirs.length >= 1);
      // The vocabulary both filters were checked against may be shared; the pages are not.
      const shared = theirs.filter((key) => mine.has(key));
      assert.ok(shared.length <= 1, `shared keys: ${shared.length}`);
    }, { client: { cache: { dir, mode: "record" } } });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
