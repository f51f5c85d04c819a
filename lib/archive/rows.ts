/**
 * Row types of the archive tables, for typed row access (`rows<ResourceRow>(table)`).
 *
 * @module
 */

export type { TripleRow } from "../sparql/rows.ts";

/**
 * One row of a resources table (`Archive.resources`, `Archive.search`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface ResourceRow {
  /** UUID of the resource */
  id: string | null;
  /** slug, unique per database */
  slug: string | null;
  /** resource type: item, collection, ... */
  type: string | null;
  /** title */
  title: string | null;
  /** whether the resource is public */
  isPublic: boolean | null;
  /** slug of the parent resource, or null */
  parent: string | null;
}

/**
 * One row of the databases table (`Archive.databases`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface DatabaseRow {
  /** account slug */
  account: string | null;
  /** database slug */
  slug: string | null;
  /** database title */
  title: string | null;
  /** serving app: dl, text or records */
  service: string | null;
  /** holding institution */
  provider: string | null;
  /** whether the site keeps a graph and a SPARQL endpoint */
  rdf: boolean | null;
  /** whether the database is public */
  isPublic: boolean | null;
}

/**
 * One row of an `oai_dc` harvest table (`OaiPmh.harvest`); other formats have the header columns and the fields found: one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface HarvestRow {
  /** OAI identifier of the record */
  identifier: string | null;
  /** Last change of the record (UTC) */
  datestamp: Date | null;
  /** Sets of the record (archive: resource type) */
  setSpec: unknown[] | null;
  /** Whether the record was deleted */
  deleted: boolean | null;
  /** Dublin Core title, every occurrence */
  "dc:title": unknown[] | null;
  /** Dublin Core creator, every occurrence */
  "dc:creator": unknown[] | null;
  /** Dublin Core subject, every occurrence */
  "dc:subject": unknown[] | null;
  /** Dublin Core description, every occurrence */
  "dc:description": unknown[] | null;
  /** Dublin Core publisher, every occurrence */
  "dc:publisher": unknown[] | null;
  /** Dublin Core contributor, every occurrence */
  "dc:contributor": unknown[] | null;
  /** Dublin Core date, every occurrence */
  "dc:date": unknown[] | null;
  /** Dublin Core type, every occurrence */
  "dc:type": unknown[] | null;
  /** Dublin Core format, every occurrence */
  "dc:format": unknown[] | null;
  /** Dublin Core identifier, every occurrence */
  "dc:identifier": unknown[] | null;
  /** Dublin Core source, every occurrence */
  "dc:source": unknown[] | null;
  /** Dublin Core language, every occurrence */
  "dc:language": unknown[] | null;
  /** Dublin Core relation, every occurrence */
  "dc:relation": unknown[] | null;
  /** Dublin Core coverage, every occurrence */
  "dc:coverage": unknown[] | null;
  /** Dublin Core rights, every occurrence */
  "dc:rights": unknown[] | null;
}
