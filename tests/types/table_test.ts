/**
 * Type-level tests of the provenance helpers and the HTTP client of
 * `@tidepool/tidepool`: the parameters objects of issue 58, and the
 * positional forms they replaced, refused. Checked by `deno check`.
 */

import type { ColumnTable } from "arquero";
import { deriveProvenance, PagingCapError, withLineage } from "../../mod.ts";
import { cacheKey, HttpClient } from "../../lib/http/mod.ts";
import { type Equals, expectType } from "./_type_checks.ts";

declare const table: ColumnTable;

/** The calls, never run: only type-checked. */
export function tableCalls(): void {
  expectType<Equals<ReturnType<typeof withLineage>, ColumnTable>>(true);
  expectType<Equals<ReturnType<typeof cacheKey>, Promise<string>>>(true);
  const traced: ColumnTable = withLineage(table, { inputs: { table }, steps: "table.count()" });
  const derived: ColumnTable = deriveProvenance(table, { operation: "tags", inputs: { table } });
  void traced, derived;
  void new HttpClient("https://x.example", { timeoutMs: 1000, defaults: { concurrency: 2 } });
  void new PagingCapError("rows", { cap: "maxRows", limit: 10 });

  // @ts-expect-error withLineage(table, inputs, steps) is the form of before 0.2.
  void withLineage(table, { table }, "table.count()");
  // @ts-expect-error deriveProvenance takes { operation, inputs, params }.
  void deriveProvenance(table, "tags", { table });
  // @ts-expect-error The service defaults go in the options, as `defaults`.
  void new HttpClient("https://x.example", {}, { concurrency: 2 });
  // @ts-expect-error cacheKey takes one request object.
  void cacheKey("GET", "https://x.example/", undefined);
}
