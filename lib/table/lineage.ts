/**
 * Lineage of a table made with Arquero verbs: which tables it was made from
 * (each by its digest, with the call that returned it when known) and the
 * steps, as text. Verbs return tables without provenance (see
 * `provenance.ts`); a reader of a paper most wants to see where such a
 * table came from, so the author states it once with
 * {@linkcode withLineage}, and `saveBundle` shows it on the page and in the
 * RO-Crate. Kept beside the table, never in its columns.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { deriveProvenance } from "./derived_provenance.ts";
import { provenance } from "./provenance.ts";
import { tableDigest } from "./table_digest.ts";

/** One table a derived table was made from. */
export interface LineageInput {
  /** The name the author gave it in {@linkcode withLineage}. */
  readonly name: string;
  /** Its `tableDigest` SHA-256 when the derived table was made. */
  readonly sha256: string;
  /** Its row count then. */
  readonly rows: number;
  /** The call that returned it (`Subgraph.orders`), when its provenance says. */
  readonly operation?: string;
  /** That call's service, when its provenance says. */
  readonly service?: string;
}

/** Where a derived table came from, as {@linkcode lineage} reads it. */
export interface Lineage {
  /** The input tables, in the order given. */
  readonly inputs: readonly LineageInput[];
  /** The steps that made it, as the author wrote them (Arquero verbs, as text). */
  readonly steps: string;
}

const lineages = new WeakMap<ColumnTable, Lineage>();

/** Parameters of {@linkcode withLineage}. */
export interface WithLineageParameters {
  /** The tables it was made from, by name. */
  inputs: Readonly<Record<string, ColumnTable>>;
  /** The steps, as text (the verbs as written, or a sentence). */
  steps: string;
}

/**
 * States where a table made with Arquero verbs came from: its input tables
 * (their digests are taken now, with the call that returned each) and the
 * steps, as text. When an input has provenance, the table also gets the
 * provenance of a derivation (`deriveProvenance`, the operation
 * `Arquero verbs`), so its service, times and cache keys carry over.
 *
 * @param table The derived table.
 * @param parameters `inputs`, the tables it was made from, by name; `steps`,
 *   as text (the verbs as written, or a sentence).
 * @returns The same table.
 *
 * @example Counts per tag, with where they came from
 * ```ts
 * import * as aq from "arquero";
 * const assets = aq.table({ did: ["a", "b"], tags: [["sea"], ["sea", "air"]] });
 * const byTag = withLineage(assets.unroll("tags").groupby("tags").count(), {
 *   inputs: { assets },
 *   steps: 'assets.unroll("tags").groupby("tags").count()',
 * });
 * console.log(lineage(byTag)?.inputs[0].rows); // 2
 * ```
 */
export function withLineage(
  table: ColumnTable,
  { inputs, steps }: WithLineageParameters,
): ColumnTable {
  const described = Object.entries(inputs).map(([name, input]) => {
    const from = provenance(input);
    return {
      name,
      sha256: tableDigest(input).sha256,
      rows: input.numRows(),
      ...(from ? { operation: from.operation, service: from.service } : {}),
    };
  });
  deriveProvenance(table, { operation: "Arquero verbs", inputs, params: { steps } });
  lineages.set(table, Object.freeze({ inputs: Object.freeze(described), steps }));
  return table;
}

/**
 * The lineage stated with {@linkcode withLineage}, or undefined.
 *
 * @param table Any Arquero table.
 * @returns Its inputs and steps, or undefined when none were stated.
 *
 * @example A table with none
 * ```ts
 * import * as aq from "arquero";
 * console.log(lineage(aq.table({ n: [1] }))); // undefined
 * ```
 */
export function lineage(table: ColumnTable): Lineage | undefined {
  return lineages.get(table);
}
