/**
 * Expression search tables carry their provenance: one page's hits and
 * facets, every page, a work's expressions, the books and the counts.
 */

import assert from "node:assert/strict";
import { provenance } from "../../mod.ts";
import { withSandbox } from "../expressions/_helpers.ts";

Deno.test("expression tables: operation, params, rows, one cache key per page", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withSandbox(async ({ client, sandbox }) => {
      const page = await client.search({ emotion: ["喜"], limit: 5 });
      for (const table of [page.hits, ...Object.values(page.facets)]) {
        const from = provenance(table)!;
        assert.equal(from.operation, "ExpressionSearch.search");
        assert.equal(from.service, sandbox.url.replace(/\/$/, ""));
        assert.deepEqual(from.params, { emotion: ["喜"], limit: 5 });
        assert.equal(from.rows, table.numRows());
        // The page, and the vocabulary the filters were checked against.
        assert.ok(from.cacheKeys.length >= 1);
      }
      const all = await client.searchAll({ emotion: "喜" }, { pageSize: 100 });
      const fromAll = provenance(all)!;
      assert.equal(fromAll.operation, "ExpressionSearch.searchAll");
      assert.deepEqual(fromAll.params, { emotion: "喜", pageSize: 100 });
      assert.equal(fromAll.rows, all.numRows());
      assert.ok(fromAll.cacheKeys.length >= Math.ceil(all.numRows() / 100));
      // The service states no "as of" (docs/ASSUMPTIONS.md): none is made up.
      assert.deepEqual(fromAll.asOf, {});
      for await (const part of client.searchPages({ emotion: "喜" }, { pageSize: 100 })) {
        assert.deepEqual(provenance(part)?.asOf, {});
      }

      const books = await client.books();
      assert.equal(provenance(books)?.operation, "ExpressionSearch.books");
      const pid = books.get("pid", 0) as string;
      const byBook = await client.byBook(pid);
      assert.deepEqual(provenance(byBook)?.params, { pid });
      assert.equal(
        provenance(await client.bookEmotions())?.operation,
        "ExpressionSearch.bookEmotions",
      );
      const stats = await client.stats();
      assert.equal(provenance(stats.emotions)?.operation, "ExpressionSearch.stats");
      const analytics = await client.analytics();
      for (const table of Object.values(analytics)) {
        assert.equal(provenance(table)?.operation, "ExpressionSearch.analytics");
      }
    }, { client: { cache: { dir, mode: "record" } } });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
