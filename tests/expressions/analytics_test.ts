import assert from "node:assert/strict";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { withSandbox } from "./_helpers.ts";

function counts(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of keys) out[key] = (out[key] ?? 0) + 1;
  return out;
}

function asMap(rows: object[], key: (row: Record<string, unknown>) => string) {
  return Object.fromEntries(
    (rows as Record<string, unknown>[]).filter((r) => (r.count as number) > 0).map((
      r,
    ) => [key(r), r.count]),
  );
}

Deno.test("analytics and stats agree with a recount of every hit", async () => {
  await withSandbox(async ({ client }) => {
    const hits = await client.searchAll();
    const emotion = hits.array("emotion") as string[];
    const bodyPart = hits.array("bodyPart") as string[];
    const valence = hits.array("valence") as string[];
    const pid = hits.array("pid") as string[];

    const stats = await client.stats();
    assert.equal(stats.total, hits.numRows());
    assert.deepEqual(asMap(stats.emotions.objects(), (r) => r.emotion as string), counts(emotion));
    assert.deepEqual(
      asMap(stats.bodyParts.objects(), (r) => r.bodyPart as string),
      counts(bodyPart),
    );
    assert.deepEqual(asMap(stats.valences.objects(), (r) => r.valence as string), counts(valence));
    const ordered = stats.emotions.array("count") as number[];
    assert.deepEqual(ordered, [...ordered].sort((a, b) => b - a));

    const analytics = await client.analytics();
    assert.deepEqual(analytics.emotionBodyPart.columnNames(), [
      "emotion",
      "bodyPart",
      "count",
      "total",
    ]);
    assert.deepEqual(
      asMap(analytics.emotionBodyPart.objects(), (r) => `${r.emotion}|${r.bodyPart}`),
      counts(emotion.map((e, i) => `${e}|${bodyPart[i]}`)),
    );
    assert.deepEqual(analytics.bookEmotions.columnNames(), [
      "pid",
      "title",
      "emotion",
      "count",
      "total",
    ]);
    assert.deepEqual(
      asMap(analytics.bookEmotions.objects(), (r) => `${r.pid}|${r.emotion}`),
      counts(pid.map((p, i) => `${p}|${emotion[i]}`)),
    );
    assert.deepEqual(
      asMap(analytics.valence.objects(), (r) => r.valence as string),
      counts(valence),
    );
    assert.deepEqual(
      asMap(analytics.emotion.objects(), (r) => r.emotion as string),
      counts(emotion),
    );
    assert.deepEqual(
      asMap(analytics.bodyPart.objects(), (r) => r.bodyPart as string),
      counts(bodyPart),
    );

    const books = await client.books();
    assert.deepEqual(
      Object.fromEntries(
        (books.objects() as { pid: string; expressionCount: number }[]).map((
          b,
        ) => [b.pid, b.expressionCount]).filter(([, c]) => (c as number) > 0),
      ),
      counts(pid),
    );
  });
});

Deno.test("analytics keeps each row's total: a work's and an emotion's, as recounted from every hit", async () => {
  await withSandbox(async ({ client }) => {
    const hits = await client.searchAll();
    const perWork = counts(hits.array("pid") as string[]);
    const perEmotion = counts(hits.array("emotion") as string[]);
    const { bookEmotions, emotionBodyPart } = await client.analytics();
    for (const row of bookEmotions.objects() as { pid: string; total: number }[]) {
      assert.equal(row.total, perWork[row.pid], `total of work ${row.pid}`);
    }
    for (const row of emotionBodyPart.objects() as { emotion: string; total: number }[]) {
      assert.equal(row.total, perEmotion[row.emotion], `total of emotion ${row.emotion}`);
    }
    const fromBooks = await client.bookEmotions();
    for (const row of fromBooks.objects() as { pid: string; total: number }[]) {
      assert.equal(row.total, perWork[row.pid], `expression_count of work ${row.pid}`);
    }
  });
});

Deno.test("analytics takes the total the service sends, not the sum of the counts it shows", async () => {
  // Expressions with no category count in a work's total but in none of its
  // emotions, so the sum of the counts can fall short of the total.
  const body = {
    booksEmotions: [{ pid: "1", title: "A", total: 10, emotions: { "喜": 4, "怒": 3 } }],
    emotionBodypartMatrix: [{ emotion: "喜", bodyParts: { "目": 2 }, total: 4 }],
    valenceDistribution: {},
    emotionDistribution: {},
    bodyPartDistribution: {},
  };
  const client = new ExpressionSearch("http://127.0.0.1:9", {
    minIntervalMs: 0,
    progress: false,
    retry: false,
    fetch: () => Promise.resolve(Response.json(body)),
  });
  const { bookEmotions, emotionBodyPart } = await client.analytics();
  assert.deepEqual(bookEmotions.array("total"), [10, 10]);
  assert.deepEqual(emotionBodyPart.objects(), [
    { emotion: "喜", bodyPart: "目", count: 2, total: 4 },
  ]);
});
