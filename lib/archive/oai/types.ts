/**
 * The contract of the OAI-PMH client: options, records, pages and the
 * repository description.
 *
 * @module
 */

import type { StrictOption } from "../../http/unknown_shape.ts";
import type { PagedReadOptions } from "../../paging/types.ts";
import type { Provenance } from "../../table/provenance.ts";

/** One harvested record (a header, and the flattened metadata when present). */
export interface OaiRecord {
  /** The OAI identifier. */
  identifier: string;
  /** The datestamp, or null when the repository sent none or an unreadable one. */
  datestamp: Date | null;
  /** The datestamp as the repository wrote it (its granularity). */
  datestampText: string;
  /** The sets of the record. */
  setSpec: string[];
  /** Whether the header has `status="deleted"`. */
  deleted: boolean;
  /**
   * The metadata flattened into fields, so that no element's text is lost:
   * for `oai_dc`, `dc:title`, `dc:creator` and the other Dublin Core
   * elements; for other formats the element path, each segment its local
   * name qualified with its namespace's prefix where the namespace changes
   * (`mods:titleInfo.title`, `jps:sourceInfo.schema:provider`; well-known
   * namespaces get the same prefix whether written with one or as a default
   * namespace), MARCXML by tag and subfield code (`marc:245$a`),
   * `rdf:about` for the described resource and `about.` before the fields of
   * the record's `about` containers. A field whose name would equal a header
   * column (`identifier`, `datestamp`, ...) is named `metadata:<name>`.
   * Every field is an array of strings (repeated elements, in document
   * order), each the element's text exactly as sent (spaces and line breaks
   * kept; an empty element gives no value). Where a value carries an
   * `xml:lang` (its own or an enclosing element's), the field has a
   * companion `<field>@xml:lang` holding each value's language, in the same
   * order, `""` for a value without one. Other attributes are not columns
   * (`raw` keeps them); `rdf:resource` links are read as values.
   */
  metadata: Record<string, string[]>;
  /**
   * With `raw: true`, the record's XML as sent: its `<record>` element (the
   * `<header>` for ListIdentifiers), with the namespace declarations it
   * inherits from the envelope added to its start tag so that it stands alone.
   */
  raw?: string;
}

/** What a harvest asks for, and its per-call signal and caps. */
export interface HarvestOptions extends PagedReadOptions, StrictOption {
  /** The metadata format; default `oai_dc`. */
  metadataPrefix?: string;
  /** Only records of this set (for the archive platform: a resource type). */
  set?: string;
  /** Only records changed at or after this time (a day, an ISO timestamp or a Date). */
  from?: string | Date;
  /** Only records changed at or before this time. */
  until?: string | Date;
  /** `ListRecords` (default: headers and metadata) or `ListIdentifiers` (headers only). */
  verb?: "ListRecords" | "ListIdentifiers";
  /**
   * A JSON file that makes the harvest resumable and incremental: the
   * position is saved after every page, a rerun continues where it stopped,
   * and after a complete harvest the next run asks only for changes since
   * the high-water datestamp.
   */
  state?: string;
  /**
   * Keep each record's XML as sent in a `raw` column (see
   * {@linkcode OaiRecord.raw}), for formats a flat table cannot hold
   * (MODS, MARC, DataCite). Default false.
   */
  raw?: boolean;
}

/** One page of a streaming harvest. */
export interface HarvestPage {
  /** The records of the page that were not already delivered in this harvest. */
  records: OaiRecord[];
  /** 1-based page number within this run. */
  page: number;
  /** The list size the repository announced, if it did. */
  completeListSize?: number;
  /** The cursor the repository announced for this page, if it did. */
  cursor?: number;
  /** The `responseDate` of the page. */
  responseDate?: string;
  /** Whether this is the last page of the harvest. */
  last: boolean;
  /**
   * Where the page came from, as `provenance(table)` states it for a table:
   * the harvest, its page number and records, and that page's own requests
   * and "as of". Set by `harvestRecords`.
   */
  provenance?: Provenance;
}

/** What Identify says about a repository. */
export interface OaiIdentify {
  /** The repository's name. */
  repositoryName: string;
  /** Its base URL. */
  baseURL: string;
  /** The protocol version, `2.0`. */
  protocolVersion: string;
  /** Administrator e-mail addresses. */
  adminEmail: string[];
  /** The earliest datestamp, as written. */
  earliestDatestamp: string;
  /** `no`, `transient` or `persistent`. */
  deletedRecord: string;
  /** `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`. */
  granularity: string;
  /** Compression encodings offered. */
  compression: string[];
  /** The `repositoryIdentifier` of an `oai-identifier` description, if any. */
  repositoryIdentifier?: string;
}

/** Options of the {@linkcode OaiPmh} client beyond the HTTP ones. */
export interface OaiPmhOptions {
  /**
   * Follow a redirect to another host than the endpoint's. Default false:
   * an answer from another authority is refused.
   */
  allowOtherHosts?: boolean;
}
