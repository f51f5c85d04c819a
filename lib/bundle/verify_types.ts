/**
 * The types of a bundle check: what `verifyBundle` takes and finds.
 *
 * @module
 */

import type { ColumnTable } from "arquero";

/** One thing that does not hold. */
export interface BundleProblem {
  /** The file it concerns, as the bundle names it. */
  path: string;
  /** What was checked: `file`, `table`, `datapackage`, `crate` or `sums` (`SHA256SUMS`). */
  check: "file" | "table" | "datapackage" | "crate" | "sums";
  /** What differs, in words. */
  problem: string;
}

/** How `verifyBundle` reads a bundle. */
export interface VerifyOptions {
  /** The most cells (rows × columns) a table may have to be read back; default 10,000,000. */
  maxTableCells?: number;
}

/** What `verifyBundle` found. */
export interface BundleVerification {
  /** Whether everything holds. */
  readonly ok: boolean;
  /** The problems, one row each: `path, check, problem`; empty when all holds. */
  readonly problems: ColumnTable;
  /** How many files and tables were checked. */
  readonly checked: { readonly files: number; readonly tables: number };
  /** The verdict in words: what holds, or every problem. */
  readonly summary: string;
}
