/**
 * Harvesting over the archive sandbox's own resources: the records the
 * OAI-PMH provider and the ResourceSync source serve, derived from the
 * public resources of public sites, and the mounting of both on the
 * sandbox's paths.
 *
 * @module
 */

import { createOaiProvider, type OaiProvider } from "./oai/oai_provider.ts";
import type { OaiFaults, OaiSandboxRecord } from "./oai/types.ts";
import { createResourceSyncSource } from "./resourcesync/resourcesync_source.ts";
import { dataUri, triplesFor } from "./_mapping.ts";
import { toJsonLd } from "./_linked_data.ts";
import type { ArchiveState, DatabaseIndex, Harvesting } from "./_state.ts";
import type { SeedResource, SeedValue } from "./seed.ts";
import { DC_ELEMENTS } from "../../archive/oai/dublin_core.ts";

/** The 15 Dublin Core elements, as the harvesting client reads them. */
const DC = new Set<string>(DC_ELEMENTS);

/** Metadata keys that are not `dcterms:<element>` but map to an element. */
const DC_ALIASES: Record<string, string> = {
  "dcterms:spatial": "coverage",
  "dcterms:temporal": "coverage",
  "dcterms:license": "rights",
  "schema:license": "rights",
  license: "rights",
};

/** Metadata keys carried into `jps` as they are, or renamed. */
const JPS_KEYS: Record<string, string> = {
  "dcterms:creator": "schema:creator",
  "dcterms:date": "schema:temporal",
  "dcterms:spatial": "schema:spatial",
  "dcterms:subject": "schema:about",
  "dcterms:language": "schema:inLanguage",
  "schema:license": "schema:license",
  license: "schema:license",
};

/** Whether a site has modification timestamps (not backed by an external or federated search). */
export function hasTimestamps(index: DatabaseIndex): boolean {
  return !index.db.settings.search;
}

/** ISO 8601 UTC without milliseconds, as OAI-PMH datestamps are written. */
function seconds(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function values(value: SeedValue | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** The record of one public resource. */
export function oaiRecordOf(
  state: ArchiveState,
  index: DatabaseIndex,
  resource: SeedResource,
): OaiSandboxRecord {
  const { account, slug: db } = index.db;
  const host = new URL(state.origin).hostname;
  const dc: Record<string, string[]> = { title: [resource.title] };
  const jps: Record<string, string[]> = { "schema:name": [resource.title] };
  const add = (bag: Record<string, string[]>, key: string, list: string[]) => {
    if (list.length) bag[key] = [...(bag[key] ?? []), ...list];
  };
  for (const [key, value] of Object.entries(resource.metadata)) {
    const local = key.startsWith("dcterms:") ? key.slice(8) : "";
    const element = DC.has(local) ? local : DC_ALIASES[key];
    if (element) add(dc, element, values(value));
    if (JPS_KEYS[key]) add(jps, JPS_KEYS[key], values(value));
  }
  const uri = dataUri(state, index, resource.slug);
  add(dc, "identifier", [uri]);
  add(jps, "jps:accessInfo", [
    `${state.origin}/${account}/${db}/resource/${encodeURIComponent(resource.slug)}`,
  ]);
  add(jps, "jps:sourceInfo.schema:provider", [index.db.settings.provider]);
  return {
    identifier: `oai:${host}:${account}/${db}/${resource.slug}`,
    slug: resource.slug,
    datestamp: seconds(resource.updated),
    created: seconds(resource.created),
    setSpec: [resource.type],
    dc,
    jps,
  };
}

/**
 * The records of a site: its public resources, in datestamp order (none for
 * private sites); with `deleted`, its removed resources too, as deleted
 * records (OAI-PMH; a ResourceSync resource list names only what exists).
 */
export function oaiRecordsOf(
  state: ArchiveState,
  index: DatabaseIndex,
  deleted = false,
): OaiSandboxRecord[] {
  if (!index.db.is_public) return [];
  const { account, slug: db } = index.db;
  const host = new URL(state.origin || "http://localhost").hostname;
  const removed: OaiSandboxRecord[] = deleted
    ? (index.db.withdrawn ?? []).map((w) => ({
      identifier: `oai:${host}:${account}/${db}/${w.slug}`,
      slug: w.slug,
      datestamp: seconds(w.removed),
      created: seconds(w.removed),
      setSpec: [w.type],
      deleted: true,
      dc: {},
      jps: {},
    }))
    : [];
  return [
    ...index.db.resources.filter((r) => r.is_public).map((r) => oaiRecordOf(state, index, r)),
    ...removed,
  ].sort((a, b) => (a.datestamp < b.datestamp ? -1 : a.datestamp > b.datestamp ? 1 : 0));
}

/** The JSON-LD a program gets at a resource's data URI without a key (resources_handler.ts). */
export function jsonLdOf(
  state: ArchiveState,
  index: DatabaseIndex,
  resource: SeedResource,
): Record<string, unknown> {
  const triples = triplesFor(state, index, resource, "schema", null);
  return toJsonLd(triples, dataUri(state, index, resource.slug));
}

/** Options of the harvesting handlers. */
export interface HarvestingOptions {
  /** Records per OAI-PMH list page; default 100. */
  oaiPageSize?: number;
  /** Entries per ResourceSync resource-list page; default 10,000. */
  resourceListPageSize?: number;
  /** Serve ResourceSync resource lists behind a sitemap index. */
  sitemapIndex?: boolean;
}

/** Makes the harvesting handlers; `faults` is shared by every site's provider. */
export function createHarvesting(
  state: ArchiveState,
  faults: OaiFaults,
  options: HarvestingOptions = {},
): Harvesting {
  const providers = new Map<string, OaiProvider>();
  for (const [key, index] of state.databases) {
    if (!index.db.is_public) continue;
    providers.set(
      key,
      createOaiProvider({
        repository: {
          repositoryName: `${index.db.title} (${index.db.settings.provider})`,
          adminEmail: [`admin@${index.db.account}.archive.example`],
          repositoryIdentifier: new URL(state.origin || "http://localhost").hostname,
          setNames: { item: "Items", collection: "Collections" },
        },
        records: () => oaiRecordsOf(state, index, true),
        pageSize: options.oaiPageSize ?? 100,
        faults,
      }),
    );
  }
  const resourceSync = createResourceSyncSource({
    sites: () => {
      const sites: Record<string, OaiSandboxRecord[]> = {};
      for (const [key, index] of state.databases) {
        if (index.db.is_public && hasTimestamps(index)) sites[key] = oaiRecordsOf(state, index);
      }
      return sites;
    },
    pageSize: options.resourceListPageSize,
    sitemapIndex: options.sitemapIndex,
    metadata: state.shapes.resourceSyncMetadata,
    // The bytes the data URI sends a program (JSON-LD), so the listed digests are its digests.
    content: (uri, record) => {
      const [account, db] = new URL(uri).pathname.split("/").slice(1, 3);
      const index = state.databases.get(`${account}/${db}`)!;
      const resource = index.bySlug.get(record.slug)!;
      return {
        body: new TextEncoder().encode(JSON.stringify(jsonLdOf(state, index, resource))),
        type: "application/ld+json",
      };
    },
  });
  return { providers, resourceSync };
}
