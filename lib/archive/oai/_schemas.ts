/**
 * The column schemas of the OAI-PMH tables, declared once.
 *
 * @module
 */

import type { ColumnType } from "../../table/convert.ts";
import { defineSchema, type TableSchema } from "../../table/schema.ts";
import type { HarvestRow } from "../rows.ts";
import { DC_ELEMENTS } from "./dublin_core.ts";
import type { OaiRecord } from "./types.ts";

const HEADER_COLUMNS = [
  { name: "identifier", type: "string", description: "OAI identifier of the record" },
  {
    name: "datestamp",
    type: "date",
    get: (r: OaiRecord) => r.datestamp,
    description: "Last change of the record (UTC)",
  },
  { name: "setSpec", type: "array", description: "Sets of the record (archive: resource type)" },
  { name: "deleted", type: "boolean", description: "Whether the record was deleted" },
] as const;

/** Columns of a ListIdentifiers harvest: the header fields. */
export const headerSchema = defineSchema<OaiRecord>(HEADER_COLUMNS);

/**
 * Columns of an `oai_dc` ListRecords harvest: the header fields, then one
 * array column per Dublin Core element (`dc:title` ... `dc:rights`). Other
 * elements the records carry follow as extra array columns.
 */
export const dcRecordSchema: TableSchema<OaiRecord, HarvestRow> = defineSchema([
  ...HEADER_COLUMNS,
  ...DC_ELEMENTS.map((element) => ({
    name: `dc:${element}` as const,
    type: "array" as const,
    get: (r: OaiRecord) => r.metadata[`dc:${element}`],
    description: `Dublin Core ${element}, every occurrence`,
  })),
]);

/** Columns of ListRecords in other formats (`jps`, ...): the header, then the fields found. */
export const recordSchema = headerSchema;

/** The column of `raw: true`: each record's XML as sent. */
const RAW_COLUMN = {
  name: "raw",
  type: "string",
  get: (r: OaiRecord) => r.raw ?? null,
  description: "The record's XML as sent (its <record> element, or <header> for ListIdentifiers)",
} as const;

const withRaw = new Map<TableSchema<OaiRecord>, TableSchema<OaiRecord>>();

/**
 * The fixed columns of a harvest's table, by verb and format, with `raw`
 * after them when asked; the metadata fields found follow as array columns.
 */
export function harvestSchema(
  verb: string,
  metadataPrefix: string,
  raw = false,
): TableSchema<OaiRecord> {
  const schema: TableSchema<OaiRecord> = verb === "ListIdentifiers"
    ? headerSchema
    : metadataPrefix === "oai_dc"
    ? dcRecordSchema
    : recordSchema;
  if (!raw) return schema;
  let extended = withRaw.get(schema);
  if (!extended) withRaw.set(schema, extended = defineSchema([...schema.columns, RAW_COLUMN]));
  return extended;
}

/**
 * The type of a column of a harvest's table, by its name alone: the header
 * columns and `raw` have theirs, every other column (a metadata field, or
 * its `@xml:lang` companion) is a list of strings. A table read back from a
 * file takes these, never types guessed from its text.
 */
export function harvestColumnType(name: string): ColumnType {
  if (name === RAW_COLUMN.name) return "string";
  return HEADER_COLUMNS.find((column) => column.name === name)?.type ?? "array";
}

/** Columns of listMetadataFormats(). */
export const formatSchema = defineSchema([
  { name: "metadataPrefix", type: "string", description: "Prefix to pass as metadataPrefix" },
  { name: "schema", type: "string", description: "XML schema URL of the format" },
  { name: "metadataNamespace", type: "string", description: "XML namespace of the format" },
]);

/** Columns of listSets(). */
export const setSchema = defineSchema([
  { name: "setSpec", type: "string", description: "Set identifier to pass as set" },
  { name: "setName", type: "string", description: "Human name of the set" },
  { name: "setDescription", type: "string", description: "Description text, when given" },
]);
