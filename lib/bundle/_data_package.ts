/**
 * The `datapackage.json` of a bundle: a Frictionless Data Package 2.0 with
 * one resource per file, each with its size and SHA-256; CSV and Parquet
 * resources carry the table's Table Schema.
 *
 * @module
 */

import type { BundleEntries, BundleFile, SavedTable } from "./_bundle_entries.ts";

/** The Data Package profile the descriptor follows. */
export const DATA_PACKAGE_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json";

/** The CSV dialect Arquero writes (and the bundle therefore declares). */
const CSV_DIALECT = {
  header: true,
  delimiter: ",",
  lineTerminator: "\n",
  quoteChar: '"',
  doubleQuote: true,
};

/** A name Data Package accepts: lower-case letters, digits, `-`, `_`, `.`. */
export function packageName(title: string): string {
  const name = title.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");
  return name || "tidepool-bundle";
}

function fileResource(file: BundleFile, title: string, format: string) {
  return {
    name: file.path.toLowerCase(),
    path: file.path,
    title,
    format,
    mediatype: file.mediaType,
    bytes: file.bytes,
    hash: `sha256:${file.sha256}`,
  };
}

/**
 * The CSV file's schema: fields whose formula-like text was escaped say so,
 * and a field whose name was quoted in the header bears that name there.
 */
function csvSchema(table: SavedTable) {
  if (!table.escaped.length && !table.renamed.size) return table.schema;
  const fields = table.schema.fields.map((field) => {
    const notes: string[] = [];
    if (table.escaped.includes(field.name)) {
      notes.push(
        "in this file, text a spreadsheet would run as a formula (=, +, -, @ first) begins with an added '",
      );
    }
    const quoted = table.renamed.get(field.name);
    if (quoted !== undefined) {
      notes.push(`the column ${JSON.stringify(field.name)}, its name quoted in this file's header`);
    }
    return notes.length
      ? {
        ...field,
        name: quoted ?? field.name,
        description: [field.description, ...notes].join("; "),
      }
      : field;
  });
  return { ...table.schema, fields };
}

function tableResources(table: SavedTable) {
  const from = table.provenance;
  const sources = from ? { sources: [{ title: from.operation, path: from.service }] } : {};
  const rows = `${table.rows} ${table.rows === 1 ? "row" : "rows"}`;
  const made = table.lineage;
  const description = made
    ? `${rows}, made with Arquero verbs from ${
      made.inputs.map((input) => input.name).join(", ")
    }: ${made.steps}`
    : from
    ? `${from.operation} at ${from.service}, ${rows}`
    : `${rows}, without provenance (made or changed with Arquero verbs, or from a call that records none)`;
  return [
    {
      ...fileResource(table.csv, table.name, "csv"),
      type: "table",
      description,
      encoding: "utf-8",
      dialect: CSV_DIALECT,
      schema: csvSchema(table),
      ...sources,
    },
    {
      ...fileResource(table.parquet, table.name, "parquet"),
      type: "table",
      description: `${description}; the same table in Parquet, types kept`,
      schema: table.schema,
      ...sources,
    },
  ];
}

/**
 * The Data Package descriptor of a bundle.
 *
 * @param entries What the bundle holds.
 * @returns The descriptor, ready for `JSON.stringify`.
 */
export function dataPackage(entries: BundleEntries): Record<string, unknown> {
  const { license } = entries;
  const licenses = license.url
    ? { licenses: [{ path: license.url, ...(license.spdx ? { name: license.spdx } : {}) }] }
    : {};
  const contributors = entries.authors.length
    ? {
      contributors: entries.authors.map((author) => ({
        title: author.name,
        ...(author.givenName ? { givenName: author.givenName } : {}),
        ...(author.familyName ? { familyName: author.familyName } : {}),
        ...(author.orcid ? { path: author.orcid } : {}),
        ...(author.affiliation ? { organization: author.affiliation } : {}),
        roles: ["creator"],
      })),
    }
    : {};
  const keywords = entries.keywords.length ? { keywords: entries.keywords } : {};
  return {
    $schema: DATA_PACKAGE_PROFILE,
    name: packageName(entries.title),
    title: entries.title,
    description: entries.description,
    created: entries.created,
    ...licenses,
    ...contributors,
    ...keywords,
    resources: [
      ...entries.tables.flatMap(tableResources),
      ...entries.plots.map((plot) => ({
        ...fileResource(plot.svg, plot.name, "svg"),
        encoding: "utf-8",
      })),
    ],
  };
}
