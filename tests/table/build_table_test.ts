import assert from "node:assert/strict";
import {
  buildTable,
  columnTypes,
  defineSchema,
  isOfType,
  TableBuilder,
  toDate,
} from "../../lib/table/mod.ts";

interface Order {
  id: string;
  createdTimestamp: string | number;
  amount: string;
  consumer: { id: string };
  reuses: number | null;
  tags: string[] | string | null;
  finished: boolean | "true" | "false";
  big: string;
}

const schema = defineSchema<Order>([
  { name: "id", type: "string" },
  { name: "createdAt", type: "date", path: "createdTimestamp" },
  { name: "amount", type: "number" },
  { name: "consumer.id", type: "string", path: "consumer.id" },
  { name: "reuses", type: "integer" },
  { name: "tags", type: "array" },
  { name: "finished", type: "boolean" },
  { name: "big", type: "bigint" },
  { name: "label", type: "string", get: (order) => `order ${order.id}` },
]);

function order(i: number): Order {
  return {
    id: `0x${i.toString(16).padStart(8, "0")}`,
    createdTimestamp: i % 2
      ? String(1_700_000_000 + i)
      : new Date(1_700_000_000_000 + i).toISOString(),
    amount: (i / 10).toString(),
    consumer: { id: `0x${"a".repeat(39)}${i % 10}` },
    reuses: i % 7 === 0 ? null : i % 5,
    tags: i % 3 === 0 ? null : i % 3 === 1 ? "single" : ["a", "b"],
    finished: i % 2 ? true : "false",
    big: (2n ** 60n + BigInt(i)).toString(),
  };
}

Deno.test("an empty and a 100,000-row table have identical column names and types", () => {
  const empty = buildTable(schema, []);
  const builder = new TableBuilder(schema);
  for (let page = 0; page < 100; page++) {
    builder.add(Array.from({ length: 1000 }, (_, i) => order(page * 1000 + i)));
  }
  const full = builder.build();
  assert.equal(empty.numRows(), 0);
  assert.equal(full.numRows(), 100_000);
  assert.deepEqual(empty.columnNames(), schema.names);
  assert.deepEqual(full.columnNames(), empty.columnNames());
  assert.deepEqual(columnTypes(full), columnTypes(empty));
  // Every cell holds its declared type or null: the types are not only labels.
  const types = columnTypes(full);
  for (const name of full.columnNames()) {
    const values = full.array(name) as ArrayLike<unknown>;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      assert.ok(value === null || isOfType(value, types[name]), `${name}[${i}] = ${value}`);
    }
  }
});

Deno.test("pages are joined in order, array cells kept whole, over 10,000 pages", () => {
  const records = Array.from({ length: 10_002 }, (_, i) => order(i));
  const builder = new TableBuilder(schema);
  // One row a page, then a last page of two.
  for (let i = 0; i < 10_000; i++) builder.add([records[i]]);
  builder.add(records.slice(10_000));
  const paged = builder.build();
  const whole = buildTable(schema, records);
  assert.equal(paged.numRows(), 10_002);
  assert.deepEqual(paged.array("id"), whole.array("id"));
  assert.deepEqual(paged.array("tags"), whole.array("tags"));
  assert.ok(
    (paged.array("tags") as unknown[]).every((cell) => cell === null || Array.isArray(cell)),
  );
});

Deno.test("values are converted as the schema says", () => {
  const table = buildTable(schema, [order(1), order(2), order(7)]);
  const [one, two, seven] = table.objects() as Record<string, unknown>[];
  assert.deepEqual(one.createdAt, new Date(1_700_000_001_000), "Unix seconds");
  assert.deepEqual(two.createdAt, new Date(1_700_000_000_002), "ISO string");
  assert.equal(one.amount, 0.1);
  assert.equal(one["consumer.id"], `0x${"a".repeat(39)}1`);
  assert.equal(seven.reuses, null);
  assert.deepEqual(one.tags, ["single"]);
  assert.deepEqual(two.tags, ["a", "b"]);
  assert.equal(two.finished, false);
  assert.equal(one.big, 2n ** 60n + 1n, "exact beyond 2^53");
  assert.equal(one.label, "order 0x00000001");
});

Deno.test("dates come from ISO text, Unix seconds and Unix milliseconds", () => {
  assert.deepEqual(toDate("1712345678901"), new Date(1712345678901));
  assert.deepEqual(toDate("1712345678"), new Date(1712345678000));
  assert.deepEqual(toDate(1712345678), new Date(1712345678000));
  assert.deepEqual(toDate("2026-01-02T03:04:05Z"), new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
  assert.equal(toDate("not a date"), null);
  assert.equal(toDate(""), null);
  assert.equal(toDate(null), null);
});

Deno.test("dynamic columns follow the declared ones and are padded with nulls", () => {
  const base = defineSchema<{ id: string; metadata: Record<string, unknown> }>([
    { name: "id", type: "string" },
  ]);
  const table = buildTable(base, [
    { id: "a", metadata: { "dcterms:creator": "夏目漱石" } },
    { id: "b", metadata: {} },
    { id: "c", metadata: { "dcterms:date": "1905", "dcterms:creator": ["A", "B"] } },
  ], { dynamic: { read: (record) => record.metadata } });
  assert.deepEqual(table.columnNames(), ["id", "dcterms:creator", "dcterms:date"]);
  assert.deepEqual(table.array("dcterms:creator"), ["夏目漱石", null, ["A", "B"]]);
  assert.deepEqual(table.array("dcterms:date"), [null, null, "1905"]);
});

Deno.test("a schema refuses duplicate column names", () => {
  assert.throws(
    () => defineSchema([{ name: "id", type: "string" }, { name: "id", type: "number" }]),
    /duplicate column: id/,
  );
});
