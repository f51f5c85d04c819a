/**
 * The table builder on 10^6 records against `aq.from(records)` and
 * `aq.table(columns)`, in the same process.
 *
 * Run: deno run -A --frozen bench/table_bench.ts
 */

import * as aq from "arquero";
import { buildTable, defineSchema } from "../lib/table/mod.ts";
import { record } from "./_compare.ts";
import { measure, report } from "./_measure.ts";

const ROWS = Number(Deno.args[0] ?? 1_000_000);

const records = Array.from({ length: ROWS }, (_, i) => ({
  id: `0x${i.toString(16).padStart(40, "0")}`,
  symbol: `DT${i % 97}`,
  serviceIndex: i % 3,
  reuses: i % 11,
  amount: (i % 1000) / 10,
  free: i % 2 === 0,
}));

const schema = defineSchema([
  { name: "id", type: "string" },
  { name: "symbol", type: "string" },
  { name: "serviceIndex", type: "integer" },
  { name: "reuses", type: "integer" },
  { name: "amount", type: "number" },
  { name: "free", type: "boolean" },
]);

const medians = await measure([
  { name: "tidepool buildTable (typed, checked)", run: () => buildTable(schema, records) },
  { name: "aq.from(records) (untyped)", run: () => aq.from(records) },
  {
    name: "aq.table(columns) (hand-made arrays)",
    run: () => {
      const columns: Record<string, unknown[]> = {};
      for (const name of schema.names) columns[name] = records.map((r) => r[name as "id"]);
      return aq.table(columns);
    },
  },
]);
report("records -> Arquero table", medians, ROWS, "aq.from(records) (untyped)");
await record({
  title: "Table builder",
  work: `${ROWS.toLocaleString("en-US")} records of 6 fields to a table, in one process`,
  rounds: 5,
  warmRuns: 5,
  summaries: [
    { name: "tidepool buildTable (typed, checked)", kind: "tidepool" },
    { name: "aq.from(records) (untyped)", kind: "alternative" },
    { name: "aq.table(columns) (hand-made arrays)", kind: "alternative" },
  ].map((s) => ({ ...s, kind: s.kind as "tidepool" | "alternative", ms: medians[s.name] })),
  notes: ["In-process (no network): each contender warmed once, then 5 alternating rounds"],
});
