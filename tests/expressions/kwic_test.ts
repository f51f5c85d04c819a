/** kwic(): keyword-in-context lines as a table, one row per occurrence. */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { ExpressionSearch, kwic, KWIC_COLUMNS, rows } from "../../mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";

Deno.test("kwic(): every occurrence split into left, keyword and right, in hit order", () => {
  const hits = aq.table({
    id: ["e1", "e2", "e3"],
    title: ["こころ", "坊っちゃん", "三四郎"],
    surface: ["涙", "笑", "涙"],
    context: ["先生は涙をこぼした。涙が止まらない", "誰も笑わなかった", "空だけが青い"],
  });
  assert.deepEqual(rows(kwic(hits, "涙"), KWIC_COLUMNS), [
    {
      hit: 0,
      id: "e1",
      title: "こころ",
      left: "先生は",
      keyword: "涙",
      right: "をこぼした。涙が止まらない",
    },
    {
      hit: 0,
      id: "e1",
      title: "こころ",
      left: "先生は涙をこぼした。",
      keyword: "涙",
      right: "が止まらない",
    },
  ]);
  // Without a keyword each hit's own surface is used; span trims with an ellipsis.
  const own = rows(kwic(hits, undefined, { span: 2 }), KWIC_COLUMNS);
  assert.deepEqual(own.map((r) => [r.hit, r.left, r.keyword, r.right]), [
    [0, "…生は", "涙", "をこ…"],
    [0, "…た。", "涙", "が止…"],
    [1, "誰も", "笑", "わな…"],
  ]);
  assert.deepEqual(kwic(hits.filter(() => false), "涙").columnNames(), KWIC_COLUMNS.names);
  assert.throws(() => kwic(aq.table({ title: ["x"] }), "涙"), /no context column/);
  assert.throws(() => kwic(hits, ""), /the keyword is empty/);
});

Deno.test("kwic() on sandbox hits: every line's parts rebuild a span of its hit's context", async () => {
  const sandbox = startExpressionSandbox();
  try {
    const client = new ExpressionSearch(sandbox.url, { minIntervalMs: 0, progress: false });
    const { hits } = await client.search({ emotion: "哀", limit: 20 });
    const lines = rows(kwic(hits), KWIC_COLUMNS);
    assert.ok(
      lines.length >= hits.numRows() / 2,
      `${lines.length} lines for ${hits.numRows()} hits`,
    );
    for (const line of lines) {
      const context = hits.get("context", line.hit!) as string;
      assert.ok(context.includes(`${line.left}${line.keyword}${line.right}`));
      assert.equal(line.keyword, hits.get("surface", line.hit!));
    }
  } finally {
    await sandbox.close();
  }
});
