/**
 * The client of an archive platform: databases, search with facets,
 * resources, authority entities, linked data, SPARQL and IIIF images.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { TidepoolError } from "../http/errors.ts";
import type { ClientOptions } from "../http/options.ts";
import { registerSecret } from "../http/redact.ts";
import type { ArchiveContext, AuthMode, MovedPath } from "./_context.ts";
import { databases, type DatabasesParameters } from "./databases.ts";
import { entity } from "./entity.ts";
import { iiifBase, type IiifImageOptions, iiifImageUrl, type IiifInfo, iiifInfo } from "./iiif.ts";
import {
  type JsonLdFormat,
  linkedData,
  type LinkedDataFormat,
  type TurtleFormat,
} from "./linked_data.ts";
import { linkedDataTable } from "./linked_data_table.ts";
import { resource } from "./resource.ts";
import { resources, type ResourcesParameters } from "./resources.ts";
import { search, type SearchParameters, type SearchResult } from "./search.ts";
import { searchAll, type SearchAllParameters } from "./search_all.ts";
import { runSparql, type SparqlOptions, type SparqlResult } from "./sparql.ts";
import type { ArchiveEntity, ArchiveResource, JsonLdDocument } from "./types.ts";
import { requireTarget, segment } from "./_context.ts";
import { OaiPmh } from "./oai/oai_pmh.ts";
import type { HarvestOptions, HarvestPage, OaiIdentify, OaiRecord } from "./oai/types.ts";
import { ResourceSync } from "./resourcesync/resource_sync.ts";
import type { MirrorOptions, MirrorResult, ResourceSyncDiscovery } from "./resourcesync/types.ts";

/** Options of an {@linkcode Archive}: the shared client options and the target. */
export interface ArchiveOptions extends ClientOptions {
  /** The account slug. */
  account?: string;
  /** The database (site) slug. */
  db?: string;
  /**
   * An API key `<public_id>.<secret>`. Its secret is redacted from every
   * error, warning and log line, and requests carrying it are never cached.
   */
  apiKey?: string;
  /**
   * When the key is sent: `auto` (default) sends it when asked (`auth: true`,
   * `scope: "mine"`) or when a read answers 401 or 404 without it (private
   * data); `always` sends it with every request; `never` never does.
   */
  auth?: AuthMode;
}

/**
 * An archive platform. Methods that return many rows read every page and
 * return Arquero tables with documented columns.
 *
 * @example Search with facets, then SPARQL
 * ```ts ignore
 * const archive = new Archive("https://archive.example", { account: "acme", db: "letters" });
 * const { hits, facets, total } = await archive.search({ q: "map", facet: ["dcterms:creator"] });
 * const rows = await archive.sparql("SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }");
 * ```
 */
export class Archive {
  /** The platform address. */
  readonly url: string;
  /** The account slug, if given. */
  readonly account?: string;
  /** The database slug, if given. */
  readonly db?: string;
  readonly #context: ArchiveContext;
  #oai?: OaiPmh;
  #sync?: ResourceSync;

  /**
   * @param baseUrl The platform address.
   * @param options Account, database, API key and the shared client options.
   */
  constructor(baseUrl: string, options: ArchiveOptions = {}) {
    const { account, db, apiKey, auth, ...clientOptions } = options;
    if (apiKey !== undefined) {
      const dot = apiKey.indexOf(".");
      if (dot <= 0 || dot === apiKey.length - 1) {
        throw new TidepoolError("Invalid API key: expected the form <public_id>.<secret>", {
          hint: "Copy the whole key as issued, with the dot between its two parts",
        });
      }
      registerSecret(apiKey);
      registerSecret(apiKey.slice(dot + 1));
    }
    const http = new HttpClient(baseUrl, clientOptions);
    this.url = http.baseUrl;
    this.account = account;
    this.db = db;
    this.#context = {
      http,
      account,
      db,
      apiKey,
      auth: auth ?? "auto",
      services: new Map(),
      moved: [],
    };
  }

  /** Path prefixes that moved after a service switch (307), as learnt so far. */
  get movedPaths(): readonly MovedPath[] {
    return [...this.#context.moved];
  }

  /**
   * The accounts catalogue.
   *
   * @param parameters `scope`: `public` (default), `mine` (with the key) or `all` (admin).
   * @returns The table `account, slug, title, service, provider, rdf, isPublic`.
   */
  databases(parameters: DatabasesParameters = {}): Promise<ColumnTable> {
    return databases(this.#context, parameters);
  }

  /**
   * One page of search hits with facets.
   *
   * @param parameters `q`, `facet`, `filter` (repeated values are OR), `sort`, `page`, `pageSize`, `expandEntities`.
   * @returns `{ hits, facets, total, expanded }`; `hits` has `id, slug, type, title, isPublic,
   *   parent` and one column per metadata key; each facet table has `value, count`.
   */
  search(parameters: SearchParameters = {}): Promise<SearchResult> {
    return search(this.#context, parameters);
  }

  /**
   * Every page of a search, with progress, as one table.
   *
   * @param parameters As {@linkcode Archive.search}, without `page` and `facet`.
   * @returns The hits table.
   */
  searchAll(parameters: SearchAllParameters = {}): Promise<ColumnTable> {
    return searchAll(this.#context, parameters);
  }

  /**
   * Every resource, all pages.
   *
   * @param parameters `type` and `parent` filters.
   * @returns The table `id, slug, type, title, isPublic, parent` and one column per metadata key.
   */
  resources(parameters: ResourcesParameters = {}): Promise<ColumnTable> {
    return resources(this.#context, parameters);
  }

  /**
   * One resource.
   *
   * @param id The slug or UUID.
   * @returns The resource.
   */
  resource(id: string): Promise<ArchiveResource> {
    return resource(this.#context, id);
  }

  /**
   * One authority record of the account.
   *
   * @param slug The entity slug.
   * @returns The entity.
   */
  entity(slug: string): Promise<ArchiveEntity> {
    return entity(this.#context, slug);
  }

  /**
   * A resource as linked data.
   *
   * @param id The slug or UUID.
   * @param format `jsonld` (schema.org, default), `rico`, `ttl` or `rico-ttl`.
   * @returns The parsed JSON-LD for the JSON forms, the Turtle text for the others.
   */
  linkedData(id: string, format?: JsonLdFormat): Promise<JsonLdDocument>;
  linkedData(id: string, format: TurtleFormat): Promise<string>;
  linkedData(id: string, format?: LinkedDataFormat): Promise<JsonLdDocument | string>;
  linkedData(id: string, format: LinkedDataFormat = "jsonld"): Promise<JsonLdDocument | string> {
    return linkedData(this.#context, id, format);
  }

  /**
   * A resource's linked data as triples.
   *
   * @param id The slug or UUID.
   * @param format `jsonld` (default), `rico`, `ttl` or `rico-ttl`.
   * @returns The table `subject, predicate, object, objectType, datatype, lang`.
   */
  linkedDataTable(id: string, format: LinkedDataFormat = "jsonld"): Promise<ColumnTable> {
    return linkedDataTable(this.#context, id, format);
  }

  /**
   * A SPARQL query against the database's endpoint (sites with `rdf` only).
   * For ASK, name the result type: `await archive.sparql<boolean>("ASK { ... }")`.
   *
   * @param query The query; use the `sparql` template tag for values.
   * @param options Format, method, database and companion columns (`lang`, `datatype`).
   * @returns SELECT: a typed table; ASK: a boolean; CONSTRUCT/DESCRIBE: a triples table.
   */
  sparql<T extends SparqlResult = ColumnTable>(
    query: string,
    options: SparqlOptions = {},
  ): Promise<T> {
    return runSparql(this.#context, query, options) as Promise<T>;
  }

  /**
   * An image's IIIF info document.
   *
   * @param asset The asset id.
   * @returns The normalised info.
   */
  iiifInfo(asset: string): Promise<IiifInfo> {
    return iiifInfo(this.#context, asset);
  }

  /**
   * An IIIF Image API 3 request URL.
   *
   * @param asset The asset id, or an info document (its `id` or v2 `@id` is used).
   * @param options Region, size, rotation, quality and format.
   * @returns The URL.
   */
  iiifImageUrl(asset: string | IiifInfo, options: IiifImageOptions = {}): string {
    const base = typeof asset === "string" ? iiifBase(this.#context, asset) : asset.id;
    return iiifImageUrl(base, options);
  }

  /** The site's OAI-PMH endpoint, `/{account}/{db}/api/oai`, made on first use. */
  get #oaiEndpoint(): OaiPmh {
    if (!this.#oai) {
      const { account, db } = requireTarget(this.#context, "OAI-PMH");
      this.#oai = new OaiPmh(this.#context.http, `/${segment(account)}/${segment(db)}/api/oai`);
    }
    return this.#oai;
  }

  /** The site's ResourceSync source, found through `/.well-known/resourcesync`. */
  get #resourceSync(): ResourceSync {
    if (!this.#sync) {
      const { account, db } = requireTarget(this.#context, "ResourceSync");
      this.#sync = new ResourceSync(this.#context.http, { site: `${account}/${db}` });
    }
    return this.#sync;
  }

  /**
   * The OAI-PMH repository description (granularity, earliest datestamp).
   *
   * @returns The parsed Identify answer.
   */
  identify(): Promise<OaiIdentify> {
    return this.#oaiEndpoint.identify();
  }

  /**
   * The metadata formats the repository offers.
   *
   * @param options One record's formats only.
   * @returns The table `metadataPrefix, schema, metadataNamespace`.
   */
  listMetadataFormats(options: { identifier?: string } = {}): Promise<ColumnTable> {
    return this.#oaiEndpoint.listMetadataFormats(options);
  }

  /**
   * The sets (resource types) of the repository, every page.
   *
   * @returns The table `setSpec, setName, setDescription`.
   */
  listSets(): Promise<ColumnTable> {
    return this.#oaiEndpoint.listSets();
  }

  /**
   * One record.
   *
   * @param identifier The OAI identifier.
   * @param metadataPrefix `oai_dc` (default) or `jps`.
   * @returns The record.
   */
  getRecord(identifier: string, metadataPrefix = "oai_dc"): Promise<OaiRecord> {
    return this.#oaiEndpoint.getRecord(identifier, metadataPrefix);
  }

  /**
   * An OAI-PMH harvest into one table, following every resumption token,
   * with progress; `noRecordsMatch` is an empty table. With `state` the
   * harvest resumes after an interruption and later runs fetch only what
   * changed since the last complete one.
   *
   * @param options `metadataPrefix`, `set`, `from`, `until`, `verb`, `state`.
   * @returns `identifier, datestamp, setSpec, deleted` and the metadata columns.
   *
   * @example An incremental harvest
   * ```ts ignore
   * const records = await archive.harvest({ metadataPrefix: "oai_dc", state: "letters.harvest.json" });
   * ```
   */
  harvest(options: HarvestOptions = {}): Promise<ColumnTable> {
    return this.#oaiEndpoint.harvest(options);
  }

  /**
   * The streaming form of {@linkcode Archive.harvest}: one page at a time,
   * for harvests that should not be held in memory.
   *
   * @param options As for `harvest`.
   * @returns The pages.
   */
  harvestRecords(options: HarvestOptions = {}): AsyncGenerator<HarvestPage> {
    return this.#oaiEndpoint.harvestRecords(options);
  }

  /**
   * Discovers the site's ResourceSync capability list.
   *
   * @returns The capability list and the URL of each capability.
   */
  resourceSync(): Promise<ResourceSyncDiscovery> {
    return this.#resourceSync.resourceSync();
  }

  /**
   * Every public resource from the ResourceSync resource list, every page.
   *
   * @param options At most this many pages.
   * @returns The table `loc, lastmod, change, html, length, type, hash`.
   */
  resourceList(options: { pages?: number } = {}): Promise<ColumnTable> {
    return this.#resourceSync.resourceList(options);
  }

  /**
   * The changes since a time, from the ResourceSync change list (created and
   * updated only: the platform does not report deletions).
   *
   * @param options `from`, an ISO 8601 time or a Date.
   * @returns The resource-list columns plus `datetime`.
   */
  changeList(options: { from?: string | Date } = {}): Promise<ColumnTable> {
    return this.#resourceSync.changeList(options);
  }

  /**
   * Keeps a local list of the site's resources: a baseline, then increments
   * from the change list, and a full re-list now and then to find deletions.
   *
   * @param options The state file and the re-list period.
   * @returns What changed.
   */
  mirror(options: MirrorOptions): Promise<MirrorResult> {
    return this.#resourceSync.mirror(options);
  }
}
