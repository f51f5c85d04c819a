/**
 * A local, offline check of a bundle folder, standing in for the RO-Crate
 * validator (which fetches its context online and passes silently offline)
 * and for Frictionless' (stale on npm). Every fact is read from the files:
 * sizes and hashes against the bytes on disk, Table Schema types against
 * the CSV cells and the Parquet column types, row counts through DuckDB.
 */

import assert from "node:assert/strict";
import { fromCSV } from "arquero";
import { Ajv } from "ajv";
import { columnTypes } from "../../lib/table/build_table.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { query, readParquetSql } from "../../lib/dataset/query.ts";

type Json = Record<string, unknown>;
type Entity = Json & { "@id": string; "@type": string | string[] };

/** The terms of the RO-Crate 1.2 context the bundle may use (copied from the context). */
const RO_CRATE_TERMS = new Set([
  "@id",
  "@type",
  "about",
  "conformsTo",
  "name",
  "description",
  "datePublished",
  "license",
  "hasPart",
  "mentions",
  "encodingFormat",
  "contentSize",
  "sha256",
  "version",
  "instrument",
  "object",
  "result",
  "startTime",
  "endTime",
  "url",
  "value",
  "identifier",
  "author",
  "keywords",
  "affiliation",
  "givenName",
  "familyName",
  "Person",
  "Organization",
  "CreativeWork",
  "Dataset",
  "File",
  "SoftwareApplication",
  "CreateAction",
  "WebAPI",
  "PropertyValue",
  "Profile",
]);

/** The Table Schema type each tidepool column type maps to. */
const EXPECTED_FIELD_TYPE: Record<string, string[]> = {
  string: ["string"],
  number: ["number"],
  integer: ["integer"],
  bigint: ["integer"],
  boolean: ["boolean"],
  date: ["datetime"],
  array: ["array"],
  object: ["object", "any"],
};

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    assert.ok(entry.isFile, `${entry.name} is a file`);
    names.push(entry.name);
  }
  return names.sort();
}

const refs = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((item) => {
    assert.equal(typeof item?.["@id"], "string", `a reference: ${JSON.stringify(item)}`);
    return item["@id"];
  });

const typesOf = (entity: Entity) => [entity["@type"]].flat();

/** Every `{"@id"}` reference anywhere in an entity's values. */
function referencesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => referencesIn(item, out));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "@id" && Object.keys(value).length === 1) out.push(item as string);
      else referencesIn(item, out);
    }
  }
  return out;
}

/** Checks ro-crate-metadata.json; returns its entities by id. */
export async function checkRoCrate(dir: string): Promise<Map<string, Entity>> {
  const crate = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
  assert.equal(crate["@context"], "https://w3id.org/ro/crate/1.2/context");
  const graph = crate["@graph"] as Entity[];
  const byId = new Map<string, Entity>();
  for (const entity of graph) {
    assert.ok(!byId.has(entity["@id"]), `one entity per @id: ${entity["@id"]}`);
    byId.set(entity["@id"], entity);
    for (const key of Object.keys(entity)) assert.ok(RO_CRATE_TERMS.has(key), `term ${key}`);
    for (const type of typesOf(entity)) assert.ok(RO_CRATE_TERMS.has(type), `type ${type}`);
  }
  const descriptor = byId.get("ro-crate-metadata.json")!;
  assert.equal(descriptor["@type"], "CreativeWork");
  assert.deepEqual(descriptor.about, { "@id": "./" });
  assert.deepEqual(descriptor.conformsTo, { "@id": "https://w3id.org/ro/crate/1.2" });
  const root = byId.get("./")!;
  assert.ok(typesOf(root).includes("Dataset"));
  for (const key of ["name", "description", "license"]) assert.ok(root[key], `root ${key}`);
  assert.match(root.datePublished as string, ISO_DATETIME);
  // hasPart lists every file of the folder but the crate's own metadata file and
  // SHA256SUMS, written after it.
  const onDisk = (await filesIn(dir)).filter((name) =>
    name !== "ro-crate-metadata.json" && name !== "SHA256SUMS"
  );
  assert.deepEqual(refs(root.hasPart).map(decodeURI).sort(), onDisk);
  for (const id of refs(root.hasPart)) {
    const file = byId.get(id)!;
    assert.ok(typesOf(file).includes("File"), `${id} is a File`);
    const bytes = await Deno.readFile(`${dir}/${decodeURI(id)}`);
    assert.equal(file.sha256, await sha256(bytes), `sha256 of ${id}`);
    assert.equal(file.contentSize, String(bytes.byteLength), `size of ${id}`);
    assert.match(file.encodingFormat as string, /^[a-z]+\/[a-z0-9.+-]+$/);
  }
  // No dangling reference: every @id named is described (the spec's own
  // conformsTo target is an implicit contextual entity).
  for (const entity of graph) {
    const named = referencesIn({ ...entity, "@id": undefined });
    for (const id of named) {
      if (entity === descriptor && id === "https://w3id.org/ro/crate/1.2") continue;
      assert.ok(byId.has(id), `${entity["@id"]} names ${id}, which the graph describes`);
    }
  }
  const actions = graph.filter((entity) => typesOf(entity).includes("CreateAction"));
  assert.deepEqual(refs(root.mentions).sort(), actions.map((action) => action["@id"]).sort());
  for (const action of actions) {
    assert.ok(action.name, `${action["@id"]} has a name`);
    const [instrument] = refs(action.instrument).map((id) => byId.get(id)!);
    assert.equal(instrument["@type"], "SoftwareApplication");
    assert.equal(instrument.name, "tidepool");
    assert.match(instrument.version as string, /^\d+\.\d+\.\d+/);
    const results = refs(action.result);
    assert.ok(results.length > 0);
    for (const id of results) assert.ok(typesOf(byId.get(id)!).includes("File"));
    assert.match(action.startTime as string, ISO_DATETIME);
    assert.match(action.endTime as string, ISO_DATETIME);
    assert.ok(action.startTime! <= action.endTime!, `${action["@id"]} starts before it ends`);
  }
  return byId;
}

/** Whether a CSV cell is of its Table Schema type (empty cells are missing). */
function cellOfType(cell: string, field: Json): boolean {
  switch (field.type) {
    case "integer":
      return /^[+-]?\d+$/.test(cell);
    case "number":
      return /^([+-]?(\d+(\.\d*)?|\.\d+)(E[+-]?\d+)?|NaN|INF|-INF)$/.test(cell);
    case "boolean":
      return [...field.trueValues as string[], ...field.falseValues as string[]].includes(cell);
    case "datetime":
      return ISO_DATETIME.test(cell);
    case "array":
      return Array.isArray(JSON.parse(cell));
    case "object": {
      const value = JSON.parse(cell);
      return typeof value === "object" && value !== null && !Array.isArray(value);
    }
    case "any":
      JSON.parse(cell);
      return true;
    case "string":
      return true;
  }
  return false;
}

/** The Data Package 2.0 profile (a JSON Schema, vendored: tests stay offline), compiled once. */
const dataPackageProfile = (() => {
  const profile = JSON.parse(
    Deno.readTextFileSync(new URL("../fixtures/datapackage/datapackage-2.0.json", import.meta.url)),
  );
  // The profile's own annotations (propertyOrder, context, a "textarea" format) are not
  // JSON Schema keywords: strict mode off, the formats it uses defined here.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat("date-time", ISO_DATETIME);
  ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\S+$/i);
  ajv.addFormat("email", /^\S+@\S+$/);
  ajv.addFormat("textarea", true);
  return ajv.compile(profile);
})();

/** Checks datapackage.json against the profile and the files; returns its row count per resource path. */
export async function checkDataPackage(dir: string): Promise<Map<string, number>> {
  const pkg: { $schema: string; name: string; resources: Json[] } = JSON.parse(
    await Deno.readTextFile(`${dir}/datapackage.json`),
  );
  assert.equal(pkg.$schema, "https://datapackage.org/profiles/2.0/datapackage.json");
  assert.ok(
    dataPackageProfile(pkg),
    `datapackage.json follows the Data Package 2.0 profile: ${
      JSON.stringify(dataPackageProfile.errors)
    }`,
  );
  assert.match(pkg.name, /^[a-z0-9._-]+$/);
  const resources = pkg.resources;
  // The files about the data (the two JSON files, CITATION.cff, index.html) are not its resources.
  const onDisk = (await filesIn(dir)).filter((name) =>
    !name.endsWith(".json") && !["CITATION.cff", "index.html", "SHA256SUMS"].includes(name)
  );
  assert.deepEqual(resources.map((resource) => resource.path).sort(), onDisk);
  assert.equal(new Set(resources.map((resource) => resource.name)).size, resources.length);
  const rowCounts = new Map<string, number>();
  for (const resource of resources) {
    const path = `${dir}/${resource.path}`;
    assert.match(resource.name as string, /^[a-z0-9._-]+$/);
    const bytes = await Deno.readFile(path);
    assert.equal(resource.hash, `sha256:${await sha256(bytes)}`, `hash of ${resource.path}`);
    assert.equal(resource.bytes, bytes.byteLength, `bytes of ${resource.path}`);
    if (resource.type !== "table") continue;
    const fields = (resource.schema as { fields: Json[] }).fields;
    const names = fields.map((field) => field.name as string);
    if (resource.format === "csv") {
      const text = new TextDecoder().decode(bytes);
      const table = fromCSV(text, { autoType: false });
      assert.deepEqual(table.columnNames(), names, `CSV header of ${resource.path}`);
      for (const field of fields) {
        for (const cell of table.array(field.name as string) as (string | null)[]) {
          if (cell === null || cell === "") continue;
          assert.ok(
            cellOfType(cell, field),
            `${resource.path} ${field.name}: ${cell} is ${field.type}`,
          );
        }
      }
      rowCounts.set(resource.path as string, table.numRows());
    } else {
      assert.equal(resource.format, "parquet");
      const types = columnTypes(await readTable(path));
      assert.deepEqual(Object.keys(types), names, `Parquet columns of ${resource.path}`);
      for (const field of fields) {
        assert.ok(
          EXPECTED_FIELD_TYPE[types[field.name as string]].includes(field.type as string),
          `${resource.path} ${field.name}: ${types[field.name as string]} read as ${field.type}`,
        );
      }
      // Another tool reads it: DuckDB counts its rows.
      const counted = await query(`SELECT count(*)::INTEGER AS n FROM ${readParquetSql(path)}`);
      rowCounts.set(resource.path as string, counted.get("n", 0) as number);
    }
  }
  return rowCounts;
}
