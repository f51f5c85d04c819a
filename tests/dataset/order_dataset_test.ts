import assert from "node:assert/strict";
import { writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { query } from "../../lib/dataset/query.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { withSandbox } from "../subgraph/_helpers.ts";

Deno.test("The order walk streams into a month-partitioned dataset that DuckDB counts in full", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const rows = sandbox.rows.get("Order")!;
    const dir = await Deno.makeTempDir();
    try {
      const summary = await writeDataset<Record<string, unknown>>(sg.orderPages(), dir, {
        partitionBy: [{
          name: "month",
          value: (order) => (order.createdAt as Date).toISOString().slice(0, 7),
        }],
        flushRows: 5_000,
      });
      assert.equal(summary.rows, rows.length);
      assert.ok(summary.files.every((f) => /^month=\d{4}-\d{2}\//.test(f)));

      const table = await sg.orders();
      const counts = await query(
        `SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids,
                sum(gasPrice)::VARCHAR AS gas FROM orders`,
        { views: { orders: dir } },
      );
      const gas = (table.array("gasPrice") as (bigint | null)[]).reduce(
        (sum: bigint, value) => sum + (value ?? 0n),
        0n,
      );
      assert.deepEqual(counts.objects(), [{ n: rows.length, ids: rows.length, gas: `${gas}` }]);

      const byMonth = await query(
        "SELECT month, count(*)::INTEGER AS n FROM orders GROUP BY month ORDER BY month",
        { views: { orders: dir } },
      );
      const expected = new Map<string, number>();
      for (const when of table.array("createdAt") as Date[]) {
        const month = when.toISOString().slice(0, 7);
        expected.set(month, (expected.get(month) ?? 0) + 1);
      }
      assert.deepEqual(
        byMonth.objects(),
        [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([month, n]) => ({ month, n })),
      );
      const sample = await query(
        `SELECT * EXCLUDE (month) FROM orders WHERE id = '${table.get("id", 0)}'`,
        { views: { orders: dir } },
      );
      assert.equal(sample.numRows(), 1);
      assert.equal(columnTypes(sample).createdAt, "date");
      assert.equal(columnTypes(sample).gasPrice, "bigint");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }));

Deno.test("orderPages hands on pages of the orders table and ends with the read's block", () =>
  withSandbox(async ({ sg }) => {
    const pages = sg.orderPages({ orderBy: "id" });
    let step = await pages.next();
    let rows = 0;
    let columns: string[] = [];
    while (!step.done) {
      rows += step.value.numRows();
      columns = step.value.columnNames();
      step = await pages.next();
    }
    const table = await sg.orders({ orderBy: "id" });
    assert.equal(rows, table.numRows());
    assert.deepEqual(columns, table.columnNames());
    assert.ok((step.value.block ?? 0) > 0);
    assert.equal(step.value.rows, rows);
  }));
