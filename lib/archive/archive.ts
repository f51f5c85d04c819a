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
import type { StrictOption } from "../http/unknown_shape.ts";
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
import { type IssuedKey, issueKey } from "./issue_key.ts";
import { createDatabase, type DatabaseRecord } from "./create_database.ts";
import { updateSettings, type UpdateSettingsResult } from "./update_settings.ts";
import { createResource, type CreateResourceInput } from "./create_resource.ts";
import { updateResource } from "./update_resource.ts";
import { deleteResource } from "./delete_resource.ts";
import { createEntity, type CreateEntityInput } from "./create_entity.ts";
import { usage } from "./usage.ts";
import { addDomain, type CustomDomain, domains, verifyDomain } from "./domains.ts";
import { importCsv, type ImportResult } from "./import_csv.ts";
import { upload, type UploadedAsset, type UploadOptions } from "./upload.ts";
import { setAssetPublic } from "./set_asset_public.ts";
import type { MirrorOptions, MirrorResult, ResourceSyncDiscovery } from "./resourcesync/types.ts";
import { kernelProgress } from "../notebook/progress_display.ts";

/** Options of an {@linkcode Archive}: the shared client options and the target. */
export interface ArchiveOptions extends ClientOptions {
  /** The account slug. */
  account?: string;
  /** The database (site) slug. */
  db?: string;
  /**
   * An API key `<public_id>.<secret>`; default the `TIDEPOOL_ARCHIVE_KEY`
   * environment variable. Its secret is redacted from every error, warning
   * and log line, and requests carrying it are never cached.
   */
  apiKey?: string;
  /** An identity-provider session (ID token) for the custom-domain calls. */
  session?: string;
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
   * Creates a client of the platform; without `apiKey` it reads `TIDEPOOL_ARCHIVE_KEY`.
   *
   * @param baseUrl The platform address.
   * @param options Account, database, API key and the shared client options.
   */
  constructor(baseUrl: string, options: ArchiveOptions = {}) {
    const { account, db, auth, session, ...clientOptions } = options;
    const apiKey = options.apiKey ?? keyFromEnv();
    delete (clientOptions as { apiKey?: string }).apiKey;
    if (session) registerSecret(session);
    if (apiKey !== undefined) {
      const dot = apiKey.indexOf(".");
      if (dot <= 0 || dot === apiKey.length - 1 || /\s/.test(apiKey)) {
        throw new TidepoolError("Invalid API key: expected the form <public_id>.<secret>", {
          hint: "Copy the whole key as issued, with the dot between its two parts",
        });
      }
      registerSecret(apiKey);
      registerSecret(apiKey.slice(dot + 1));
    }
    const http = new HttpClient(baseUrl, clientOptions, { progress: kernelProgress() });
    this.url = http.baseUrl;
    this.account = account;
    this.db = db;
    this.#context = {
      http,
      account,
      db,
      apiKey,
      session,
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
  /** A resource as Turtle text, for the `ttl` and `rico-ttl` formats. */
  linkedData(id: string, format: TurtleFormat): Promise<string>;
  /** A resource as linked data, for a format known only at run time. */
  linkedData(id: string, format?: LinkedDataFormat): Promise<JsonLdDocument | string>;
  linkedData(id: string, format: LinkedDataFormat = "jsonld"): Promise<JsonLdDocument | string> {
    return linkedData(this.#context, id, format);
  }

  /**
   * A resource's linked data as triples.
   *
   * @param id The slug or UUID.
   * @param format `jsonld` (default), `rico`, `ttl` or `rico-ttl`.
   * @param options `strict` to refuse JSON-LD that would lose data instead of dropping it.
   * @returns The table `subject, predicate, object, objectType, datatype, lang`.
   */
  linkedDataTable(
    id: string,
    format: LinkedDataFormat = "jsonld",
    options: StrictOption = {},
  ): Promise<ColumnTable> {
    return linkedDataTable(this.#context, id, format, options);
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

  /**
   * Issues an API key from an identity-provider ID token. The secret is
   * handed back once, registered for redaction, never logged or cached.
   *
   * @param idToken The ID token.
   * @param options The scopes; default read and write.
   * @returns `{ key, publicId, account, scopes }`.
   */
  issueKey(idToken: string, options: { scopes?: ("read" | "write")[] } = {}): Promise<IssuedKey> {
    return issueKey(this.#context, idToken, options);
  }

  /**
   * Creates a database (site) in the account (write scope).
   *
   * @param input `{ slug, title }`.
   * @returns The database.
   */
  createDatabase(input: { slug: string; title: string }): Promise<DatabaseRecord> {
    return createDatabase(this.#context, input);
  }

  /**
   * Updates the site settings; a `service` change is followed to the new
   * path (the old one answers 307) and reported as `moved`.
   *
   * @param settings `service`, `card`, `provider`, `ogImage`, `rdf`, ...
   * @returns The database and the move, if any.
   */
  updateSettings(settings: Record<string, unknown>): Promise<UpdateSettingsResult> {
    return updateSettings(this.#context, settings);
  }

  /**
   * Creates a resource (write scope; 409 names a duplicate slug). Never
   * retried; after a network error it is looked up before being resent.
   *
   * @param input Slug, type, title, metadata, visibility, parent.
   * @returns The resource.
   */
  createResource(input: CreateResourceInput): Promise<ArchiveResource> {
    return createResource(this.#context, input);
  }

  /**
   * Updates some fields of a resource.
   *
   * @param id The slug or UUID.
   * @param changes The fields to change.
   * @returns The resource after the change.
   */
  updateResource(
    id: string,
    changes: Partial<Omit<CreateResourceInput, "slug">>,
  ): Promise<ArchiveResource> {
    return updateResource(this.#context, id, changes);
  }

  /**
   * Deletes a resource.
   *
   * @param id The slug or UUID.
   * @returns Nothing once deleted.
   */
  deleteResource(id: string): Promise<void> {
    return deleteResource(this.#context, id);
  }

  /**
   * Creates an authority record of the account.
   *
   * @param input The entity fields.
   * @returns The entity.
   */
  createEntity(input: CreateEntityInput): Promise<ArchiveEntity> {
    return createEntity(this.#context, input);
  }

  /**
   * The account's usage, as the platform sends it (read scope).
   *
   * @returns The usage object.
   */
  usage(): Promise<Record<string, unknown>> {
    return usage(this.#context);
  }

  /**
   * The custom domains of the signed-in account (the `session` option).
   *
   * @returns The domains.
   */
  domains(): Promise<CustomDomain[]> {
    return domains(this.#context);
  }

  /**
   * Adds a custom domain for the database; an external one returns the
   * CNAME and TXT records to set.
   *
   * @param host The host name.
   * @returns The domain.
   */
  addDomain(host: string): Promise<CustomDomain> {
    return addDomain(this.#context, host);
  }

  /**
   * Verifies an external domain's DNS records and activates it.
   *
   * @param host The host name.
   * @returns The domain with its status and records.
   */
  verifyDomain(host: string): Promise<CustomDomain> {
    return verifyDomain(this.#context, host);
  }

  /**
   * Bulk import from an Arquero table (checked locally: a slug column,
   * unique slugs) or CSV text.
   *
   * @param tableOrCsv The table or the CSV text.
   * @returns `{ created, updated, errors, bytes }`.
   */
  importCsv(tableOrCsv: ColumnTable | string): Promise<ImportResult> {
    return importCsv(this.#context, tableOrCsv);
  }

  /**
   * Uploads an image through the tiling pipeline and waits until ready.
   *
   * @param file A path, file URL, Blob or bytes (streamed, never buffered whole).
   * @param options `derivative` (`ptif`), `isPublic`, `contentType`, `timeoutMs`, `pollMs`.
   * @returns `{ id, status, width, height, iiif, isPublic }`.
   */
  upload(
    file: string | URL | Blob | Uint8Array,
    options: UploadOptions = {},
  ): Promise<UploadedAsset> {
    return upload(this.#context, file, options);
  }

  /**
   * Makes an image public or private.
   *
   * @param asset The asset id or an uploaded asset.
   * @param isPublic The visibility.
   * @returns The asset.
   */
  setAssetPublic(asset: string | { id: string }, isPublic: boolean): Promise<UploadedAsset> {
    return setAssetPublic(this.#context, asset, isPublic);
  }
}

/** The key in `TIDEPOOL_ARCHIVE_KEY`, when it is set and readable. */
function keyFromEnv(): string | undefined {
  try {
    return Deno.env.get("TIDEPOOL_ARCHIVE_KEY") || undefined;
  } catch {
    return undefined;
  }
}
