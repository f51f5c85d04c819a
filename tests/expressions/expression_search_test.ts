import assert from "node:assert/strict";
import { NotFoundError, TidepoolError } from "../../lib/errors/errors.ts";
import { EXPRESSION_COLUMNS, ExpressionSearch } from "../../lib/expressions/mod.ts";
import type { SearchParameters } from "../../lib/expressions/mod.ts";
import { withSandbox } from "./_helpers.ts";

Deno.test("default pacing is polite: one request in flight, 250 ms apart", () => {
  const client = new ExpressionSearch("http://127.0.0.1:9");
  assert.deepEqual(client.http.pacing, { minIntervalMs: 250, concurrency: 1 });
  const custom = new ExpressionSearch("http://127.0.0.1:9", { minIntervalMs: 10, concurrency: 3 });
  assert.deepEqual(custom.http.pacing, { minIntervalMs: 10, concurrency: 3 });
});

Deno.test("search with Japanese filters sends them encoded and comma-joined", async () => {
  await withSandbox(async ({ sandbox, client, urls }) => {
    const page = await client.search({
      keyword: "涙",
      emotion: "哀",
      bodyPart: ["涙", "目"],
      limit: 50,
    });
    const sent = urls.at(-1)!;
    assert.equal(sent.searchParams.get("body_part"), "涙,目");
    assert.match(sent.search, /%E6%B6%99/); // 涙, percent-encoded
    const expected = sandbox.expressions.filter((e) =>
      e.emotion === "哀" && (e.body_part === "涙" || e.body_part === "目") &&
      (e.surface.includes("涙") || e.context.includes("涙"))
    );
    assert.ok(expected.length > 0);
    assert.equal(page.total, expected.length);
    assert.equal(page.hits.numRows(), Math.min(50, expected.length));
    for (const hit of page.hits.objects() as Record<string, string>[]) {
      assert.equal(hit.emotion, "哀");
      assert.ok(["涙", "目"].includes(hit.bodyPart));
      assert.ok(hit.surface.includes("涙") || hit.context.includes("涙"));
    }
  });
});

Deno.test("search hits have the documented columns, also when empty", async () => {
  await withSandbox(async ({ client }) => {
    const page = await client.search({ limit: 5 });
    assert.deepEqual(page.hits.columnNames(), [...EXPRESSION_COLUMNS.names]);
    assert.ok(Array.isArray(page.hits.get("pages", 0)));
    const none = await client.search({ keyword: "存在しない語句xyz" });
    assert.equal(none.total, 0);
    assert.deepEqual(none.hits.columnNames(), [...EXPRESSION_COLUMNS.names]);
    assert.deepEqual(none.facets.emotions.columnNames(), ["key", "count"]);
    assert.equal(none.facets.emotions.numRows(), 0);
  });
});

Deno.test("facets count the whole filtered set, not the page", async () => {
  await withSandbox(async ({ client }) => {
    const filters = { valence: ["negative", "ambiguous"], gender: "female" } as const;
    const page = await client.search({ ...filters, limit: 3 });
    const all = await client.searchAll(filters);
    assert.equal(all.numRows(), page.total);
    const recount = (column: string) => {
      const counts: Record<string, number> = {};
      for (const value of all.array(column) as string[]) counts[value] = (counts[value] ?? 0) + 1;
      return counts;
    };
    const facet = (table: typeof page.facets.emotions) =>
      Object.fromEntries(
        (table.objects() as { key: string; count: number }[]).map((r) => [r.key, r.count]),
      );
    assert.deepEqual(facet(page.facets.emotions), recount("emotion"));
    assert.deepEqual(facet(page.facets.bodyParts), recount("bodyPart"));
    assert.deepEqual(facet(page.facets.valences), recount("valence"));
    assert.deepEqual(facet(page.facets.intensities), recount("intensity"));
    assert.deepEqual(facet(page.facets.genders), { female: page.total });
  });
});

Deno.test("the gender facet agrees with the gender filter", async () => {
  await withSandbox(async ({ client }) => {
    const page = await client.search({ emotion: "恥", limit: 0 });
    const genders = page.facets.genders.objects() as { key: string; count: number }[];
    assert.ok(genders.length >= 2);
    assert.equal(genders.reduce((sum, g) => sum + g.count, 0), page.total);
    for (const { key, count } of genders) {
      const filtered = await client.search({ emotion: "恥", gender: key as "male", limit: 0 });
      assert.equal(filtered.total, count, key);
    }
  });
});

Deno.test("sort and order reach the service", async () => {
  await withSandbox(async ({ client }) => {
    const asc = await client.search({ sort: "intensity", order: "asc", limit: 100 });
    const rank = { low: 0, medium: 1, high: 2 } as Record<string, number>;
    const values = (asc.hits.array("intensity") as string[]).map((v) => rank[v]);
    assert.deepEqual(values, [...values].sort((a, b) => a - b));
    const desc = await client.search({ sort: "bodyPart", order: "desc", limit: 100 });
    const parts = desc.hits.array("bodyPart") as string[];
    assert.deepEqual(parts, [...parts].sort().reverse());
  });
});

Deno.test("intensity is never sent (the spec has no such parameter): searchAll keeps the rows, search refuses it", async () => {
  await withSandbox(async ({ client, sandbox, urls }) => {
    const high = await client.searchAll({ intensity: ["high"], emotion: "喜" }, { pageSize: 100 });
    const expected = sandbox.expressions.filter((e) =>
      e.intensity === "high" && e.emotion === "喜"
    );
    assert.ok(expected.length > 0);
    assert.equal(high.numRows(), expected.length);
    assert.deepEqual([...new Set(high.array("intensity") as string[])], ["high"]);
    assert.ok(urls.every((url) => !url.searchParams.has("intensity")), "intensity was sent");
    await assert.rejects(
      client.search({ intensity: "low", limit: 50 }),
      /no intensity filter/,
    );
  });
});

Deno.test("bad filter values are refused locally with a clear error", async () => {
  await withSandbox(async ({ sandbox, client }) => {
    const bad: [SearchParameters, RegExp][] = [
      [{ valence: "happy" as "positive" }, /valence "happy" is not one of positive, negative/],
      [{ intensity: ["extreme" as "high"] }, /intensity "extreme" is not one of low, medium, high/],
      [{ gender: "other" as "male" }, /gender "other" is not one of male, female, unknown, mixed/],
      [{ sort: "date" as "emotion" }, /sort "date" is not one of/],
      [{ order: "up" as "asc" }, /order "up" is not asc or desc/],
      [{ emotion: "喜,怒" as "喜" }, /contains a comma/],
      [{ limit: -1 }, /limit must be a non-negative integer/],
    ];
    for (const [parameters, message] of bad) {
      await assert.rejects(client.search(parameters), (error: Error) => {
        assert.ok(error instanceof TidepoolError);
        assert.match(error.message, /^Cannot search expressions: /);
        assert.match(error.message, message);
        assert.match(error.message, /What to do: /);
        return true;
      });
    }
    await assert.rejects(
      client.search({ bodypart: "目" } as SearchParameters),
      /Unknown option bodypart of ExpressionSearch\.search; did you mean "bodyPart"\?/,
    );
    assert.equal(sandbox.requestCount, 0);
  });
});

Deno.test("expression(id) returns camelCase fields, nulls for absent ones, 404 as NotFoundError", async () => {
  await withSandbox(async ({ sandbox, client }) => {
    const stored = sandbox.expressions.find((e) => e.author === undefined)!;
    const expression = await client.expression(stored.id);
    assert.equal(expression.id, stored.id);
    assert.equal(expression.bodyPart, stored.body_part);
    assert.deepEqual(expression.pages, stored.pages);
    assert.equal(expression.author, null);
    assert.equal(expression.year, null);
    const full = await client.expression(sandbox.expressions[0].id);
    assert.equal(full.title, sandbox.expressions[0].title);
    await assert.rejects(client.expression("no-such-id"), NotFoundError);
  });
});

Deno.test("byBook reads every page of a work in page order", async () => {
  await withSandbox(async ({ sandbox, client }) => {
    const books = await client.books();
    const row = books.objects().find((b) =>
      (b as { expressionCount: number }).expressionCount > 120
    ) as {
      pid: string;
      expressionCount: number;
    };
    const rows = await client.byBook(row.pid);
    assert.equal(rows.numRows(), row.expressionCount);
    assert.equal(new Set(rows.array("id") as string[]).size, row.expressionCount);
    const first = (rows.array("pages") as number[][]).map((p) => p[0]);
    for (let i = 1; i < first.length; i++) assert.ok(first[i - 1] <= first[i]);
    assert.equal(rows.numRows(), sandbox.expressions.filter((e) => e.pid === row.pid).length);
  });
});

Deno.test("books and bookEmotions are tidy tables with the documented columns", async () => {
  await withSandbox(async ({ sandbox, client }) => {
    const books = await client.books();
    assert.deepEqual(books.columnNames(), [
      "pid",
      "title",
      "author",
      "year",
      "genre",
      "ndc",
      "expressionCount",
    ]);
    assert.equal(books.numRows(), sandbox.works.length);
    assert.ok(books.objects().some((b) => (b as { ndc: unknown }).ndc === null));
    const long = await client.bookEmotions();
    assert.deepEqual(long.columnNames(), ["pid", "title", "emotion", "count", "total"]);
    const sum = (long.array("count") as number[]).reduce((a, b) => a + b, 0);
    assert.equal(sum, sandbox.expressions.length);
  });
});
