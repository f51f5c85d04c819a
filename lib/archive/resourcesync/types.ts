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
}

/** Options of a list read: the most pages, and the per-call signal and caps. */
export interface ListOptions extends PagedReadOptions {
  /** The most pages (or sitemaps of an index) to read; default all. */
  pages?: number;
}
