import assert from "node:assert/strict";
import { writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { query } from "../../lib/dataset/query.ts";
import { withSandbox } from "../expressions/_helpers.ts";

Deno.test("Expression searchPages stream into a dataset holding what searchAll returns", () =>
  withSandbox(async ({ client }) => {
    const all = await client.searchAll({}, { pageSize: 100 });
    const dir = await Deno.makeTempDir();
    try {
      const summary = await writeDataset<Record<string, unknown>>(
        client.searchPages({}, { pageSize: 100 }),
        dir,
        { partitionBy: [{ name: "emotion", value: (e) => e.emotion as string }], flushRows: 700 },
      );
      assert.equal(summary.rows, all.numRows());
      assert.ok(summary.files.length > 2);
      const counts = await query(
        "SELECT emotion, count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM e GROUP BY emotion ORDER BY emotion",
        { views: { e: dir } },
      );
      const expected = new Map<string, number>();
      for (const emotion of all.array("emotion") as string[]) {
        expected.set(emotion, (expected.get(emotion) ?? 0) + 1);
      }
      assert.deepEqual(
        counts.objects(),
        [...expected].sort(([a], [b]) => a < b ? -1 : 1).map(([emotion, n]) => ({
          emotion,
          n,
          ids: n,
        })),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }));

Deno.test("searchPages keeps searchAll's intensity rule and refuses limit and offset", () =>
  withSandbox(async ({ client }) => {
    const filters = { intensity: "high" } as const;
    const all = await client.searchAll(filters, { pageSize: 100 });
    let rows = 0;
    for await (const page of client.searchPages(filters, { pageSize: 100 })) {
      assert.ok((page.array("intensity") as string[]).every((i) => i === "high"));
      rows += page.numRows();
    }
    assert.equal(rows, all.numRows());
    // Refused when called, before a page is asked for.
    assert.throws(
      () => client.searchPages({ limit: 5 } as never),
      /limit and offset are set by searchAll/,
    );
  }));
