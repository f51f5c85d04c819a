/**
 * Records to Arquero tables with stable, typed columns: a column schema is
 * declared once per table kind, and every table of that kind has the same
 * columns in the same order with the same types, whether it holds 0 rows or
 * 1,000,000.
 *
 * @module
 */

export * from "./build_table.ts";
export * from "./convert.ts";
export * from "./schema.ts";
export * from "./concat_tables.ts";
export * from "./typed_rows.ts";
export { type Provenance, provenance } from "./provenance.ts";
export { deriveProvenance, type DeriveProvenanceParameters } from "./derived_provenance.ts";
export {
  type Lineage,
  lineage,
  type LineageInput,
  withLineage,
  type WithLineageParameters,
} from "./lineage.ts";
export { canonicalTable } from "./canonical_table.ts";
export { type TableDigest, tableDigest } from "./table_digest.ts";
