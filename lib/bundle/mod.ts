/**
 * A bundle for papers: the tables and plots of a notebook in one folder,
 * as CSV, Parquet and SVG, described by a Frictionless Data Package
 * (`datapackage.json`, a Table Schema per table) and an RO-Crate 1.2
 * (`ro-crate-metadata.json`, the SHA-256 of every file and one
 * `CreateAction` per table from its provenance).
 *
 * @module
 */

export {
  type BundleAuthor,
  type BundleFile,
  saveBundle,
  type SaveBundleOptions,
  type SavedBundle,
} from "./save_bundle.ts";
export {
  type BundleProblem,
  type BundleVerification,
  verifyBundle,
  type VerifyOptions,
} from "./verify_bundle.ts";
export {
  reproduceBundle,
  type ReproducedTable,
  type ReproduceOptions,
  type Reproduction,
} from "./reproduce_bundle.ts";
export {
  type FrictionlessField,
  type FrictionlessSchema,
  frictionlessSchema,
  type FrictionlessType,
  TABLE_SCHEMA_PROFILE,
} from "./frictionless_schema.ts";
