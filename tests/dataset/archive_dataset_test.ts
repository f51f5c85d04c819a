import assert from "node:assert/strict";
import { writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { query } from "../../lib/dataset/query.ts";
import { archiveOn, withSandbox } from "../archive/_sandbox.ts";

Deno.test("Archive searchPages stream into a dataset holding what searchAll returns", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const all = await archive.searchAll({ pageSize: 20 });
    assert.ok(all.numRows() > 40, `several pages: ${all.numRows()}`);
    const dir = await Deno.makeTempDir();
    try {
      const summary = await writeDataset<Record<string, unknown>>(
        archive.searchPages({ pageSize: 20 }),
        dir,
        { partitionBy: [{ name: "kind", value: (hit) => hit.type as string }], flushRows: 30 },
      );
      assert.equal(summary.rows, all.numRows());
      const counts = await query(
        "SELECT kind, count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM hits GROUP BY kind ORDER BY kind",
        { views: { hits: dir } },
      );
      const expected = new Map<string, number>();
      for (const type of all.array("type") as string[]) {
        expected.set(type, (expected.get(type) ?? 0) + 1);
      }
      assert.deepEqual(
        counts.objects(),
        [...expected].sort(([a], [b]) => a < b ? -1 : 1).map(([kind, n]) => ({ kind, n, ids: n })),
      );
      const columns = await query("SELECT * EXCLUDE (kind) FROM hits LIMIT 0", {
        views: { hits: dir },
      });
      assert.deepEqual(columns.columnNames().sort(), all.columnNames().slice().sort());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
