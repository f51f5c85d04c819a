/**
 * Options and results of the ResourceSync client.
 *
 * @module
 */

import type { PagedReadOptions } from "../../paging/types.ts";
import type { ColumnTable } from "arquero";

/** Options of the {@linkcode ResourceSync} client beyond the HTTP ones. */
export interface ResourceSyncOptions {
  /** The site (`account/db`) whose capability list to use when the source lists several. */
  site?: string;
  /** The capability list's URL or path, to skip discovery. */
  capabilityList?: string;
  /** Follow links to other hosts than the document that named them; default false. */
  allowOtherHosts?: boolean;
  /** Entries per resource-list page; a full page means another may follow. Default 10,000. */
  pageSize?: number;
}

/** What discovery found. */
export interface ResourceSyncDiscovery {
  /** The source description read (`/.well-known/resourcesync`), if discovery ran. */
  sourceDescription?: string;
  /** The capability list used. */
  capabilityList: string;
  /** Every capability list the source description named. */
  capabilityLists: string[];
  /** The URL of each capability (`resourcelist`, `changelist`, ...). */
  capabilities: Record<string, string>;
}

/** Options of mirror(). */
export interface MirrorOptions {
  /** The JSON state file that keeps the baseline time and the known resources. */
  state: string;
  /** Re-list everything (to find deletions) when the last full list is older; default 30 days. */
  relistAfterDays?: number;
  /**
   * Keep the resources' contents in this folder, each under the path of its
   * URL (`acme/letters/data/r-1`), up to the client's `concurrency` downloads
   * at once. The first run needs the folder missing or empty; later runs
   * write and delete only the files the mirror wrote. Without it, the mirror
   * lists what changed and keeps no file.
   */
  dir?: string;
  /**
   * Most bytes of a resource whose list and server give no length; default
   * 4 GiB (`DEFAULT_MAX_DOWNLOAD_BYTES`). A listed or declared length is the
   * cap of its own file.
   */
  maxBytes?: number;
  /** Stops the run: the downloads in flight end, and every finished file is kept and recorded. */
  signal?: AbortSignal;
}

/** A file a mirror wrote. */
export interface MirroredFile {
  /** The resource's location. */
  loc: string;
  /** Its path below the mirror's folder, `/`-separated. */
  path: string;
  /** Bytes written. */
  bytes: number;
  /** SHA-256 of the file, lowercase hex. */
  sha256: string;
}

/** The result of one mirror() run. */
export interface MirrorResult {
  /** `baseline` (first full list), `changes` (an increment), or `relist` (a periodic full list). */
  kind: "baseline" | "changes" | "relist";
  /** The entries of this run: every resource, or the changes. */
  table: ColumnTable;
  /** Resources gone since the previous full list (only known after a re-list). */
  removed: string[];
  /** Always false: the source does not report deletions in change lists. */
  deletionsReported: false;
  /** A sentence that says what this result can and cannot tell. */
  note: string;
  /** When the next full re-list is due. */
  nextRelistDue: Date;
  /** The files this run wrote (with `dir`). */
  written: MirroredFile[];
  /** Resources listed that the folder already held as listed, not fetched again (with `dir`). */
  unchanged: number;
  /** Paths of files removed because their resource is gone (a re-list, with `dir`). */
  deleted: string[];
  /** Paths of files whose resource is gone but that were kept: changed since tidepool wrote them. */
  kept: string[];
}

/** Options of a list read: the most pages, and the per-call signal and caps. */
export interface ListOptions extends PagedReadOptions {
  /** The most pages (or sitemaps of an index) to read; default all. */
  pages?: number;
}
