/**
 * What a bundle holds once its data files are written: the facts both
 * metadata files (`datapackage.json`, `ro-crate-metadata.json`) describe.
 *
 * @module
 */

import type { Provenance } from "../table/provenance.ts";
import type { Lineage } from "../table/lineage.ts";
import type { TableDigest } from "../table/table_digest.ts";
import type { CheckedAuthor, CheckedLicense } from "./_bundle_metadata.ts";
import type { FrictionlessSchema } from "./frictionless_schema.ts";

/** One file written into the bundle folder. */
export interface BundleFile {
  /** Its path relative to the bundle folder (a plain file name). */
  readonly path: string;
  /** Its IANA media type, e.g. `text/csv`. */
  readonly mediaType: string;
  /** Its size in bytes. */
  readonly bytes: number;
  /** The SHA-256 of its bytes, lower-case hex. */
  readonly sha256: string;
}

/** A table as saved: its two files, its schema and where it came from. */
export interface SavedTable {
  /** The name the caller gave. */
  readonly name: string;
  /** The CSV file. */
  readonly csv: BundleFile;
  /** The Parquet file. */
  readonly parquet: BundleFile;
  /** Its Table Schema. */
  readonly schema: FrictionlessSchema;
  /** The columns whose formula-like text cells got a leading `'` in the CSV file. */
  readonly escaped: readonly string[];
  /** The columns whose names got a leading `'` in the CSV header, and those names. */
  readonly renamed: ReadonlyMap<string, string>;
  /** Its row count. */
  readonly rows: number;
  /** The columns with their types, in order. */
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  /** The first rows, for the bundle's page. */
  readonly head: readonly Record<string, unknown>[];
  /** Its provenance, when a tidepool call returned it. */
  readonly provenance?: Provenance;
  /** Its lineage, when stated with `withLineage`: input tables and steps. */
  readonly lineage?: Lineage;
  /** `tableDigest` of the table as given, to find it among the inputs of another's lineage. */
  readonly given: string;
  /** `tableDigest` of each file read back with `readTable`, for `verifyBundle`. */
  readonly digests: { readonly csv: TableDigest; readonly parquet: TableDigest };
  /** When the bundle started writing its files (ISO 8601). */
  readonly savedFrom: string;
  /** When the bundle finished writing its files (ISO 8601). */
  readonly savedUntil: string;
}

/** A plot as saved. */
export interface SavedPlot {
  /** The name the caller gave. */
  readonly name: string;
  /** The SVG file. */
  readonly svg: BundleFile;
}

/** The bundle as a whole. */
export interface BundleEntries {
  /** Its title. */
  readonly title: string;
  /** Its description. */
  readonly description: string;
  /** A license URL or a sentence on reuse, as given; undefined when none was. */
  readonly license: CheckedLicense;
  readonly authors: readonly CheckedAuthor[];
  readonly keywords: readonly string[];
  /** When it was written (ISO 8601). */
  readonly created: string;
  /** The tidepool version that wrote it. */
  readonly tidepoolVersion: string;
  /** The tables, in the order given. */
  readonly tables: readonly SavedTable[];
  /** The plots, in the order given. */
  readonly plots: readonly SavedPlot[];
}

/** Whether a license is given as an address (then it is linked, not quoted). */
export function isUrl(text: string): boolean {
  return /^https?:\/\/\S+$/.test(text);
}
