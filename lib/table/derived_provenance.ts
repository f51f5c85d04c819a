/**
 * The provenance of a table a tidepool helper derives from other tables
 * (`tags`, `kwic`, `ordersWithAssets`, `compareOrders`): the helper is the
 * operation and its inputs' provenances are its parameters, so the derived
 * table still says which calls its data came from. The rule is written out
 * in `provenance.ts`.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TIDEPOOL_VERSION } from "../version.ts";
import { attachProvenance, type Provenance, provenance } from "./provenance.ts";

/** Parameters of {@linkcode deriveProvenance}. */
export interface DeriveProvenanceParameters {
  /** The operation that derived the table, e.g. `"tags"`. */
  operation: string;
  /** The tables it was derived from, by name. */
  inputs: Readonly<Record<string, ColumnTable>>;
  /** The operation's own parameters, recorded beside the inputs'. */
  params?: Readonly<Record<string, unknown>>;
}

/**
 * Attaches to a derived table the provenance of the helper that made it,
 * when at least one input has one; a table derived only from tables
 * without provenance gets none.
 *
 * - `operation`: the helper's name, such as `tags`;
 * - `params`: each input table by its parameter name, as its provenance
 *   (`null` for an input without), then the helper's own options;
 * - `service`: the inputs' services, joined with ` + ` when they differ;
 * - `startedAt`, `endedAt`: the earliest and latest of the inputs' times
 *   (the derivation is not timed, so a replay states the same);
 * - `asOf`: the inputs' fields, less those on which they disagree;
 * - `cacheKeys`: the inputs' keys in order, each once.
 *
 * @param table The derived table.
 * @param parameters `operation`, the helper's name; `inputs`, the input
 *   tables by parameter name; `params`, the helper's own options, JSON-serialisable.
 * @returns The same table.
 *
 * @example Tag counts name the search they count
 * ```ts
 * import * as aq from "arquero";
 * import { attachProvenance, provenance } from "./provenance.ts";
 * const assets = attachProvenance(aq.table({ tags: [["sea"]] }), {
 *   service: "http://127.0.0.1:1", operation: "OceanNode.searchAssets", params: {},
 *   tidepoolVersion: "0.1.0", startedAt: "2026-01-01T00:00:00Z",
 *   endedAt: "2026-01-01T00:00:01Z", asOf: { nodeVersion: "2.1.0" }, cacheKeys: ["k1"],
 * });
 * const counts = deriveProvenance(aq.table({ tag: ["sea"], count: [1] }), { operation: "tags", inputs: { assets } });
 * const from = provenance(counts)!;
 * console.log(from.operation, from.asOf, from.cacheKeys); // tags { nodeVersion: "2.1.0" } ["k1"]
 * ```
 */
export function deriveProvenance(
  table: ColumnTable,
  { operation, inputs, params: options = {} }: DeriveProvenanceParameters,
): ColumnTable {
  const named = Object.entries(inputs).map(([name, input]) => [name, provenance(input)] as const);
  const known = named.flatMap(([, from]) => from ? [from] : []);
  if (known.length === 0) return table;
  const params: Record<string, unknown> = {};
  for (const [name, from] of named) params[name] = from ? { ...from } : null;
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined) params[name] = value;
  }
  return attachProvenance(table, {
    service: [...new Set(known.map((from) => from.service))].join(" + "),
    operation,
    params,
    tidepoolVersion: TIDEPOOL_VERSION,
    startedAt: known.map((from) => from.startedAt).sort()[0],
    endedAt: known.map((from) => from.endedAt).sort().at(-1)!,
    asOf: agreedAsOf(known),
    cacheKeys: [...new Set(known.flatMap((from) => from.cacheKeys))],
    ...(known.some((from) => from.readWithKey) ? { readWithKey: true } : {}),
  });
}

/** The "as of" fields of the inputs, less those they state differently. */
function agreedAsOf(inputs: readonly Provenance[]): Record<string, string | number> {
  const agreed: Record<string, string | number> = {};
  const disputed = new Set<string>();
  for (const from of inputs) {
    for (const [name, value] of Object.entries(from.asOf)) {
      if (name in agreed && agreed[name] !== value) disputed.add(name);
      else agreed[name] = value;
    }
  }
  for (const name of disputed) delete agreed[name];
  return agreed;
}
