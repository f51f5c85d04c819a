/**
 * The `ro-crate-metadata.json` of a bundle: an RO-Crate 1.2 whose root
 * Dataset lists every file (`hasPart`), each File with its media type, size
 * and SHA-256, and one `CreateAction` per table: tidepool (and its version)
 * the instrument, the service and the query the object, the table's files
 * the result, the call's start and end the times. A table without
 * provenance has no object, and its times are those of the save, as its
 * description says.
 *
 * @module
 */

import type { BundleEntries, BundleFile, SavedTable } from "./_bundle_entries.ts";
import { isUrl } from "./_bundle_entries.ts";
import type { CheckedAuthor, CheckedLicense } from "./_bundle_metadata.ts";
import type { TableDigest } from "../table/table_digest.ts";

/** The RO-Crate 1.2 JSON-LD context. */
export const RO_CRATE_CONTEXT = "https://w3id.org/ro/crate/1.2/context";
/** The RO-Crate 1.2 specification the metadata descriptor conforms to. */
export const RO_CRATE_SPEC = "https://w3id.org/ro/crate/1.2";

type Entity = Record<string, unknown> & { "@id": string; "@type": string | string[] };

const ref = (id: string) => ({ "@id": id });

/**
 * The digest a table file reads back to, as a PropertyValue its File names
 * as `identifier`: `verifyBundle` reads the file again and compares.
 */
export const TABLE_DIGEST_NAME = "tidepool table digest";

function digestEntity(file: BundleFile, digest: TableDigest): Entity {
  return {
    "@id": `#digest-${fragment(file.path)}`,
    "@type": "PropertyValue",
    name: TABLE_DIGEST_NAME,
    value: digest.sha256,
    description: `SHA-256 of the canonical text of the table this file reads back to ` +
      `(tableDigest of readTable): ${digest.rows} rows, columns ${
        digest.columns.map((column) => `${column} (${digest.types[column]})`).join(", ")
      }`,
  };
}

function fileEntity(file: BundleFile, name: string, extra: Record<string, unknown> = {}): Entity {
  return {
    "@id": encodeURI(file.path),
    "@type": "File",
    name,
    encodingFormat: file.mediaType,
    contentSize: String(file.bytes),
    sha256: file.sha256,
    ...extra,
  };
}

/** JSON text with object keys sorted, so the same query always reads the same. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => {
    if (typeof item === "bigint") return String(item);
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)));
  });
}

/** A local `#id` part from any text: a fragment that needs no escaping. */
function fragment(name: string): string {
  return encodeURIComponent(name).replace(/%/g, "_");
}

function software(version: string): Entity {
  return {
    "@id": `#tidepool-${version}`,
    "@type": "SoftwareApplication",
    name: "tidepool",
    version,
    description: "A Deno module that turns web services into Arquero tables",
  };
}

/**
 * A derived table's lineage as entities: the steps, and each input as the
 * Parquet file of this bundle that holds it (found by its digest) or, when
 * the bundle does not hold it, as a PropertyValue with its digest.
 */
function lineageEntities(
  table: SavedTable,
  tables: ReadonlyMap<string, SavedTable>,
): { refs: { "@id": string }[]; context: Entity[] } {
  const made = table.lineage;
  if (!made) return { refs: [], context: [] };
  const id = table.csv.path.replace(/\.csv$/, "");
  const context: Entity[] = [{
    "@id": `#steps-${id}`,
    "@type": "PropertyValue",
    name: "steps",
    value: made.steps,
    description: "How the table was made from its inputs (Arquero verbs), as its author wrote it",
  }];
  const refs = [ref(context[0]["@id"])];
  for (const input of made.inputs) {
    const saved = tables.get(input.sha256);
    if (saved) {
      refs.push(ref(encodeURI(saved.parquet.path)));
      continue;
    }
    const entity: Entity = {
      "@id": `#input-${id}-${fragment(input.name)}`,
      "@type": "PropertyValue",
      name: `input ${input.name}`,
      value: input.sha256,
      description: `The table digest of the input ${input.name} (${input.rows} rows${
        input.operation ? `, from ${input.operation} at ${input.service}` : ""
      }), which this bundle does not hold`,
    };
    context.push(entity);
    refs.push(ref(entity["@id"]));
  }
  return { refs, context };
}

/** The CreateAction of one table and the contextual entities it names. */
function tableAction(
  table: SavedTable,
  tidepoolVersion: string,
  tables: ReadonlyMap<string, SavedTable>,
): Entity[] {
  const id = table.csv.path.replace(/\.csv$/, "");
  const result = [ref(encodeURI(table.csv.path)), ref(encodeURI(table.parquet.path))];
  const from = table.provenance;
  const made = lineageEntities(table, tables);
  const inputs = table.lineage?.inputs.map((input) => input.name).join(", ");
  if (!from) {
    return [{
      "@id": `#create-${id}`,
      "@type": "CreateAction",
      name: inputs
        ? `Table ${table.name}, made with Arquero verbs from ${inputs}`
        : `Table ${table.name}, without provenance`,
      description: inputs
        ? "The table was made from its inputs (the object) with the steps its author stated; " +
          "the start and end times are those of writing its files."
        : "The table carries no provenance (it was made or changed with Arquero " +
          "verbs, or returned by a call that records none), so no service, query or request " +
          "time is known; the start and end times are those of writing its files.",
      instrument: ref(software(tidepoolVersion)["@id"]),
      ...(made.refs.length ? { object: made.refs } : {}),
      result,
      startTime: table.savedFrom,
      endTime: table.savedUntil,
    }, ...made.context];
  }
  const service: Entity = isUrl(from.service)
    ? { "@id": from.service, "@type": "WebAPI", name: from.service, url: from.service }
    : { "@id": `#service-${fragment(from.service)}`, "@type": "WebAPI", name: from.service };
  const query: Entity = {
    "@id": `#query-${id}`,
    "@type": "PropertyValue",
    name: from.operation,
    value: canonicalJson(from.params),
    description: `The parameters of ${from.operation} as JSON, secrets removed`,
  };
  const context: Entity[] = [service, query];
  if (Object.keys(from.asOf).length) {
    context.push({
      "@id": `#as-of-${id}`,
      "@type": "PropertyValue",
      name: "as of",
      value: canonicalJson(from.asOf),
      description: "The state the service said it answered from, as JSON",
    });
  }
  if (from.cacheKeys.length) {
    context.push({
      "@id": `#cache-keys-${id}`,
      "@type": "PropertyValue",
      name: "cache keys",
      value: canonicalJson(from.cacheKeys),
      description: "The record/replay cache keys of the requests, in order, as JSON",
    });
  }
  return [
    {
      "@id": `#create-${id}`,
      "@type": "CreateAction",
      name: inputs
        ? `Table ${table.name}, made with Arquero verbs from ${inputs}`
        : `Table ${table.name} from ${from.operation}`,
      description: `${from.operation} at ${from.service} returned ${from.rows} ${
        from.rows === 1 ? "row" : "rows"
      }${from.readWithKey ? "; read with an API key, so the data may be private" : ""}`,
      instrument: ref(software(from.tidepoolVersion)["@id"]),
      object: [...context.map((entity) => ref(entity["@id"])), ...made.refs],
      result,
      startTime: from.startedAt,
      endTime: from.endedAt,
    },
    ...context,
    ...made.context,
  ];
}

/** A metadata file of the bundle: what it is, and the profile it follows. */
export interface DescribingFile {
  file: BundleFile;
  name: string;
  /** The profile's address and name, for a file that follows one. */
  conformsTo?: { id: string; name: string };
}

/** The licence as RO-Crate 1.2 wants it: an entity, its address the id when it has one. */
function licenseEntity(license: CheckedLicense): Entity {
  return license.url
    ? {
      "@id": license.url,
      "@type": "CreativeWork",
      name: license.spdx ?? license.url,
      ...(license.spdx ? { identifier: license.spdx } : {}),
    }
    : { "@id": "#license", "@type": "CreativeWork", name: "License", description: license.text };
}

/** An author as a Person (the ORCID iD its id, when given) and the Organization of their affiliation. */
function personEntities(author: CheckedAuthor): Entity[] {
  const organization: Entity | undefined = author.affiliation
    ? {
      "@id": `#organization-${fragment(author.affiliation)}`,
      "@type": "Organization",
      name: author.affiliation,
    }
    : undefined;
  const person: Entity = {
    "@id": author.orcid ?? `#person-${fragment(author.name)}`,
    "@type": "Person",
    name: author.name,
    ...(author.givenName ? { givenName: author.givenName } : {}),
    ...(author.familyName ? { familyName: author.familyName } : {}),
    ...(organization ? { affiliation: ref(organization["@id"]) } : {}),
  };
  return organization ? [person, organization] : [person];
}

/**
 * The RO-Crate metadata document of a bundle.
 *
 * @param entries What the bundle holds.
 * @param describing The files written about the data (`datapackage.json`,
 *   `CITATION.cff`), each with its name and the profile it conforms to.
 * @returns The document, ready for `JSON.stringify`.
 */
export function roCrate(
  entries: BundleEntries,
  describing: readonly DescribingFile[],
): Record<string, unknown> {
  const digests = entries.tables.flatMap((table) => [
    digestEntity(table.csv, table.digests.csv),
    digestEntity(table.parquet, table.digests.parquet),
  ]);
  const files: Entity[] = [
    ...entries.tables.flatMap((table, index) => [
      fileEntity(table.csv, `${table.name} (CSV)`, { identifier: ref(digests[2 * index]["@id"]) }),
      fileEntity(table.parquet, `${table.name} (Parquet)`, {
        identifier: ref(digests[2 * index + 1]["@id"]),
      }),
    ]),
    ...entries.plots.map((plot) => fileEntity(plot.svg, `${plot.name} (SVG)`)),
    ...describing.map(({ file, name, conformsTo }) =>
      fileEntity(file, name, conformsTo ? { conformsTo: ref(conformsTo.id) } : {})
    ),
  ];
  const byDigest = new Map(entries.tables.map((table) => [table.given, table]));
  const actions = entries.tables.flatMap((table) =>
    tableAction(table, entries.tidepoolVersion, byDigest)
  );
  const versions = new Set([
    entries.tidepoolVersion,
    ...entries.tables.map((table) => table.provenance?.tidepoolVersion ?? entries.tidepoolVersion),
  ]);
  const license = licenseEntity(entries.license);
  const people = entries.authors.map(personEntities);
  const contextual: Entity[] = [
    ...[...versions].map(software),
    ...describing.flatMap(({ conformsTo }) =>
      conformsTo
        ? [{ "@id": conformsTo.id, "@type": ["CreativeWork", "Profile"], name: conformsTo.name }]
        : []
    ),
    license,
    ...people.flat(),
  ];
  const seen = new Set<string>();
  const graph = [
    {
      "@id": "ro-crate-metadata.json",
      "@type": "CreativeWork",
      about: ref("./"),
      conformsTo: ref(RO_CRATE_SPEC),
    },
    {
      "@id": "./",
      "@type": "Dataset",
      name: entries.title,
      description: entries.description,
      datePublished: entries.created,
      license: ref(license["@id"]),
      ...(people.length ? { author: people.map(([person]) => ref(person["@id"])) } : {}),
      ...(entries.keywords.length ? { keywords: entries.keywords.join(", ") } : {}),
      hasPart: files.map((file) => ref(file["@id"])),
      mentions: actions.filter((entity) => entity["@type"] === "CreateAction").map((entity) =>
        ref(entity["@id"])
      ),
    },
    ...files,
    ...digests,
    ...contextual,
    ...actions,
  ].filter((entity) => !seen.has(entity["@id"]) && seen.add(entity["@id"]));
  return { "@context": RO_CRATE_CONTEXT, "@graph": graph };
}
