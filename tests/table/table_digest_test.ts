import assert from "node:assert/strict";
import * as aq from "arquero";
import { buildTable, canonicalTable, defineSchema, tableDigest } from "../../lib/table/mod.ts";

const schema = defineSchema([
  { name: "id", type: "string" },
  { name: "count", type: "integer" },
  { name: "amount", type: "bigint" },
  { name: "when", type: "date" },
  { name: "tags", type: "array" },
  { name: "extra", type: "object" },
]);

function sample(overrides: Record<string, unknown> = {}) {
  return buildTable(schema, [
    {
      id: "a",
      count: 1,
      amount: 10n,
      when: new Date("2026-06-30T12:00:00Z"),
      tags: ["x", "y"],
      extra: { b: 2, a: 1 },
      ...overrides,
    },
    { id: "b", count: null, amount: null, when: null, tags: [], extra: null },
  ]);
}

Deno.test("canonicalTable names each column with its type, then one JSON line per row", () => {
  assert.equal(
    canonicalTable(sample()),
    [
      '[["id","string"],["count","integer"],["amount","bigint"],["when","date"],["tags","array"],["extra","object"]]',
      '["a",1,{"$bigint":"10"},{"$date":"2026-06-30T12:00:00.000Z"},["x","y"],{"a":1,"b":2}]',
      '["b",null,null,null,[],null]',
    ].join("\n"),
  );
});

Deno.test("equal tables have equal digests, whatever the key order of object cells", () => {
  const a = tableDigest(sample());
  const b = tableDigest(sample({ extra: { a: 1, b: 2 } }));
  assert.equal(a.sha256, b.sha256);
  assert.deepEqual(a.columns, ["id", "count", "amount", "when", "tags", "extra"]);
  assert.equal(a.types.amount, "bigint");
  assert.equal(a.rows, 2);
  assert.match(a.sha256, /^[0-9a-f]{64}$/);
});

Deno.test("any change of value, type, name, order or row order changes the digest", () => {
  const base = tableDigest(sample()).sha256;
  const changed = [
    sample({ count: 2 }),
    sample({ amount: 11n }),
    sample({ when: new Date("2026-06-30T12:00:00.001Z") }),
    sample({ tags: ["y", "x"] }),
    sample({ extra: { a: 1, b: "2" } }),
    sample().rename({ count: "n" }),
    sample().select("count", "id", "amount", "when", "tags", "extra"),
    sample().orderby(aq.desc("id")),
    sample().slice(0, 1),
  ];
  for (const table of changed) assert.notEqual(tableDigest(table).sha256, base);
});

Deno.test("the encoding tells apart values that print alike", () => {
  const digest = (values: unknown[]) => tableDigest(aq.table({ v: values })).sha256;
  // A bigint is not a number, a date is not its ISO text, NaN is not null.
  assert.notEqual(digest([1n]), digest([1]));
  assert.notEqual(digest([new Date(0)]), digest(["1970-01-01T00:00:00.000Z"]));
  assert.notEqual(digest([NaN, 1]), digest([null, 1]));
  assert.notEqual(digest([Infinity]), digest([-Infinity]));
  assert.notEqual(digest([["1"]]), digest([[1]]));
  // An object cannot pass for an encoded value.
  assert.notEqual(digest([{ $bigint: "1" }]), digest([1n]));
  // A missing value is null, whether null or undefined.
  assert.equal(digest([null, 1]), digest([undefined, 1]));
  // NaN and an invalid date have forms of their own; -0 is 0.
  assert.equal(
    canonicalTable(aq.table({ v: [NaN, -0], d: [new Date(NaN), null] })).split("\n").slice(1)
      .join("\n"),
    '[{"$number":"NaN"},{"$date":null}]\n[0,null]',
  );
});

Deno.test("the digest is the SHA-256 of the canonical text, empty and filtered tables included", async () => {
  const sha256 = async (text: string) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
      (byte) => byte.toString(16).padStart(2, "0"),
    ).join("");
  const tables = [
    sample(),
    sample().slice(0, 0),
    sample().filter((d: { id: string }) => d.id === "b"),
    aq.table({ v: ["喜", "\n", ""] }),
  ];
  for (const table of tables) {
    assert.equal(tableDigest(table).sha256, await sha256(canonicalTable(table)));
  }
});

Deno.test("a table is digested once: shown again it is not read again, and each caller gets its own copy", () => {
  const values = [1, 2, 3];
  const table = aq.table({ n: values });
  const first = tableDigest(table);
  // Arquero tables do not change; writing into the column array behind the
  // API's back shows whether the second call read the rows again.
  values[0] = 99;
  const second = tableDigest(table);
  assert.deepEqual(second, first);
  assert.notEqual(tableDigest(aq.table({ n: values })).sha256, first.sha256);
  second.columns.push("changed by a caller");
  assert.deepEqual(tableDigest(table).columns, ["n"]);
});
