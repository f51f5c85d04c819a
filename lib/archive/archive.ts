/**
 * The client of an archive platform: databases, search with facets,
 * resources, authority entities, linked data, SPARQL and IIIF images.
 *
 * Each capability is documented once, on its method here (the public entry
 * point); the function behind a method carries a one-line pointer back. The
 * OAI-PMH and ResourceSync methods point to `OaiPmh` and `ResourceSync`,
 * which document them for any repository.
 *
 * @module
 */
import { ARCHIVE_PACING } from "./_pacing.ts";
import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { checkOptions } from "../options/check_options.ts";
import { TidepoolError } from "../errors/errors.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../http/options.ts";
import { registerSecret } from "../errors/redact.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import type { ArchiveContext, AuthMode, MovedPath } from "./_context.ts";
import type { DatabasesParameters } from "./databases.ts";
import type { IiifImageOptions, IiifInfo } from "./iiif.ts";
import type {
  JsonLdFormat,
  LinkedDataAtOptions,
  LinkedDataFormat,
  TurtleFormat,
} from "./linked_data.ts";
import type { RebuildGraphOptions } from "./rebuild_graph.ts";
import type { IiifImage, IiifImageFetchOptions } from "./iiif_image.ts";
import type { ResourcesParameters } from "./resources.ts";
import type { SearchParameters, SearchResult } from "./search.ts";
import type { SearchAllParameters } from "./search_all.ts";
import type { SparqlOptions, SparqlResult } from "./sparql.ts";
import type { SparqlAllOptions } from "./sparql_all.ts";
import type { ArchiveEntity, ArchiveResource, JsonLdDocument } from "./types.ts";
import { requireTarget, segment } from "./_context.ts";
import { OaiPmh } from "./oai/oai_pmh.ts";
import type { HarvestOptions, HarvestPage, OaiIdentify, OaiRecord } from "./oai/types.ts";
import { ResourceSync } from "./resourcesync/resource_sync.ts";
import type { IssuedKey } from "./issue_key.ts";
import type { DatabaseRecord } from "./create_database.ts";
import type { UpdateSettingsResult } from "./update_settings.ts";
import type { CreateResourceInput } from "./create_resource.ts";
import type { CreateEntityInput } from "./create_entity.ts";
import type { CustomDomain } from "./domains.ts";
import type { ImportResult } from "./import_csv.ts";
import type { PollOptions } from "../http/poll_until.ts";
import type { UploadedAsset, UploadOptions } from "./upload.ts";
import type { MirrorOptions, MirrorResult, ResourceSyncDiscovery } from "./resourcesync/types.ts";
import { bindContext } from "./_archive_handle.ts";
import * as images from "./actions/images.ts";
import * as linked from "./actions/linked_data.ts";
import * as reads from "./actions/reads.ts";
import * as writes from "./actions/writes.ts";

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
 * ```ts
 * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const { hits, facets, total } = await archive.search({ q: "Tokyo", facet: ["dcterms:creator"] });
 * console.log(total, hits.numRows(), facets.size);
 * const rows = await archive.sparql("SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }");
 * console.log(rows.numRows());
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
    options = checkOptions("new Archive", options, {
      ...CLIENT_OPTION_RULES,
      account: "string",
      db: "string",
      apiKey: "string",
      session: "string",
      auth: ["auto", "always", "never"],
    });
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
    const http = new HttpClient(baseUrl, { ...clientOptions, defaults: ARCHIVE_PACING });
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
      // The catalogue reader loads with its first use, as every read does.
      readCatalogue: async (context, scope) =>
        await (await import("./databases.ts")).databases(context, { scope }),
    };
    bindContext(this, this.#context);
  }

  /** Path prefixes that moved after a service switch (307), as learnt so far. */
  get movedPaths(): readonly MovedPath[] {
    return [...this.#context.moved];
  }

  /**
   * Lists databases from the accounts catalogue.
   *
   * @param parameters `scope`: `public` (default), `mine` (with the key, else the
   *   identity-provider `session`) or `all` (admin).
   * @returns The table `account, slug, title, service, provider, rdf, isPublic`.
   *
   * @example Public databases and their apps
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { progress: false });
   * const dbs = await archive.databases();
   * console.log(dbs.objects());
   * ```
   */
  databases(parameters: DatabasesParameters = {}): Promise<ColumnTable> {
    return reads.databases(this, parameters);
  }

  /**
   * Searches one database and returns one page of hits with facets.
   *
   * @param parameters `q`, `facet`, `filter` (repeated values are OR), `sort`, `page` and
   *   `pageSize` (or the spec's alternative, `offset` and `limit`), `expandEntities`.
   * @returns `{ hits, facets, total, expanded }`; `hits` has `id, slug, type, title, isPublic,
   *   parent` and one column per metadata key; each facet table has `value, count`.
   *
   * @example Facets by creator
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const { hits, facets, total } = await archive.search({ q: "Tokyo", facet: "dcterms:creator" });
   * console.log(total, hits.numRows(), facets.get("dcterms:creator")?.objects({ limit: 5 }));
   * ```
   */
  search(parameters: SearchParameters = {}): Promise<SearchResult> {
    return reads.search(this, parameters);
  }

  /**
   * Reads every page of a search, with progress, and checks the total the
   * service reported against the hits that arrived (a shortfall is warned).
   * A hit seen on an earlier page (the index changed while paging) is kept
   * once; a page repeated whole (the service ignored the page number) ends in
   * a `PagingError`.
   *
   * @param parameters Query, filters, sort, page size (default 100), signal and caps;
   *   `paging: "offset"` asks for pages by `page[offset]`/`page[limit]` instead of page numbers.
   * @returns The hits table: `id, slug, type, title, isPublic, parent` and one column per metadata key.
   *
   * @example Every letter in the archive
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const letters = await archive.searchAll({ filter: { "dcterms:type": "letter" } });
   * console.log(letters.numRows());
   * ```
   */
  searchAll(parameters: SearchAllParameters = {}): Promise<ColumnTable> {
    return reads.searchAll(this, parameters);
  }

  /**
   * The pages of {@linkcode Archive.searchAll} one at a time, each a table
   * of that page's hits (columns as `searchAll` gives them for those hits),
   * for searches that should not be held in memory: hand them to
   * `writeDataset` to stream them into Parquet.
   *
   * @param parameters As for `searchAll`.
   * @returns The pages, each with its own provenance (`page`, its rows and cache keys).
   */
  searchPages(parameters: SearchAllParameters = {}): AsyncGenerator<ColumnTable> {
    return reads.searchPages(this, parameters);
  }

  /**
   * Lists every resource, all pages, with progress; the reported total is
   * checked against what arrived. A server that ignores `page[number]` ends
   * in a `PagingError` at the first repeated page, not in an endless loop.
   *
   * @param parameters Type, parent, page size, signal and caps.
   * @returns The table `id, slug, type, title, isPublic, parent` and one column per metadata key.
   *
   * @example The collections of a database
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const collections = await archive.resources({ type: "collection" });
   * console.log(collections.numRows());
   * ```
   */
  resources(parameters: ResourcesParameters = {}): Promise<ColumnTable> {
    return reads.resources(this, parameters);
  }

  /**
   * Fetches one resource. A private resource answers 404 without a key; with
   * a key the request is repeated with it.
   *
   * @param id The slug or UUID.
   * @returns The resource.
   *
   * @example One letter
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const [first] = (await archive.resources()).objects() as { id: string; slug: string }[];
   * const letter = await archive.resource(first.slug);
   * console.log(letter.metadata["dcterms:creator"]);
   * ```
   */
  resource(id: string): Promise<ArchiveResource> {
    return reads.resource(this, id);
  }

  /**
   * Fetches one authority record of the account.
   *
   * @param slug The entity slug.
   * @returns The entity with its labels in every language, variants and `sameAs` links.
   *
   * @example The labels of a place
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const tokyo = await archive.entity("tokyo");
   * console.log(tokyo.prefLabel.ja, tokyo.altLabels);
   * ```
   */
  entity(slug: string): Promise<ArchiveEntity> {
    return reads.entity(this, slug);
  }

  /**
   * An authority record as linked data (`/api/{account}/entities/{slug}?format=jsonld`),
   * read through the same JSON-LD path as {@linkcode Archive.linkedData}.
   *
   * @param slug The entity's slug.
   * @returns The JSON-LD document.
   *
   * @example The linked data of a place
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const doc = await archive.entityLinkedData("tokyo");
   * console.log(Array.isArray(doc) ? doc.length : Object.keys(doc));
   * ```
   */
  entityLinkedData(slug: string): Promise<JsonLdDocument> {
    return linked.entityLinkedData(this, slug);
  }

  /**
   * Fetches a resource as linked data: the parsed JSON-LD document for
   * `jsonld` (schema.org) and `rico`, the Turtle text for `ttl` and
   * `rico-ttl`.
   *
   * @param id The slug or UUID.
   * @param format `jsonld` (default), `rico`, `ttl` or `rico-ttl`.
   * @returns The parsed JSON-LD for the JSON forms, the Turtle text for the others.
   *
   * @example RiC-O JSON-LD of a letter
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const [first] = (await archive.resources()).objects() as { id: string; slug: string }[];
   * const doc = await archive.linkedData(first.slug, "rico");
   * console.log(Array.isArray(doc) ? doc.length : Object.keys(doc));
   * ```
   */
  linkedData(id: string, format?: JsonLdFormat): Promise<JsonLdDocument>;
  /** A resource as Turtle text, for the `ttl` and `rico-ttl` formats. */
  linkedData(id: string, format: TurtleFormat): Promise<string>;
  /** A resource as linked data, for a format known only at run time. */
  linkedData(id: string, format?: LinkedDataFormat): Promise<JsonLdDocument | string>;
  linkedData(id: string, format: LinkedDataFormat = "jsonld"): Promise<JsonLdDocument | string> {
    return linked.linkedData(this, id, { format });
  }

  /**
   * The data URI of a resource, `{platform}/{account}/{db}/data/{id}`: the
   * subject of its linked data and the `loc` of ResourceSync lists. Nothing
   * is sent.
   *
   * @param id The slug or UUID.
   * @returns The URI.
   *
   * @example The URI a SPARQL query names
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const uri = archive.dataUri("letter-0001");
   * console.log(uri);
   * ```
   */
  dataUri(id: string): string {
    return linked.dataUri(this, id);
  }

  /**
   * Reads a resource at its data URI by content negotiation (`Accept`
   * JSON-LD or Turtle), as a program does; a browser would be sent to the
   * detail page. Only data URIs of this platform are read (a URI handed
   * back by a server is followed within its authority only); a web page
   * where linked data was asked for is an error, not a document.
   *
   * @param target A data URI of this platform (from ResourceSync, OAI-PMH or
   *   a SPARQL result), or a resource id of this Archive's database.
   * @param options `format`: `jsonld` (default) or `ttl`; `signal`.
   * @returns The parsed JSON-LD document, or the Turtle text.
   *
   * @example A resource found in a change list
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const [loc] = (await archive.changeList()).array("loc") as string[];
   * const doc = await archive.linkedDataAt(loc);
   * console.log(Array.isArray(doc) ? doc.length : Object.keys(doc));
   * ```
   */
  linkedDataAt(target: string, options?: { format?: "jsonld"; signal?: AbortSignal }): Promise<
    JsonLdDocument
  >;
  /** A resource at its data URI as Turtle text. */
  linkedDataAt(target: string, options: { format: "ttl"; signal?: AbortSignal }): Promise<string>;
  linkedDataAt(
    target: string,
    options: LinkedDataAtOptions = {},
  ): Promise<JsonLdDocument | string> {
    return linked.linkedDataAt(this, target, options as { format?: "jsonld" });
  }

  /**
   * Builds or rebuilds, in bulk, the graph the site's SPARQL endpoint reads
   * (`POST /api/{account}/{service}/{db}/rdf-index`; site admins only, so
   * the key is sent). Resources written since the last build reach SPARQL
   * only after it. Sent once, never retried or recorded.
   *
   * @param options Another database (`db`, `service`) of the account, a signal.
   * @returns What the platform answered (not shown in the spec; `{}` when it sends no body).
   *
   * @example After an import, make the new resources queryable
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * import * as aq from "arquero";
   * await archive.importCsv(aq.table({ slug: ["a-1"], title: ["書簡"] }));
   * await archive.rebuildGraph();
   * ```
   */
  rebuildGraph(options: RebuildGraphOptions = {}): Promise<Record<string, unknown>> {
    return linked.rebuildGraph(this, options);
  }

  /**
   * Fetches a resource as linked data and parses it into triples: Turtle with
   * the `n3` parser, JSON-LD with jsonld.js (remote contexts such as
   * `https://schema.org` are read: well-known ones offline, others fetched
   * through the client). The same export in JSON-LD and Turtle gives the same triples.
   *
   * @param id The slug or UUID.
   * @param format `jsonld` (default), `rico`, `ttl` or `rico-ttl`.
   * @param options `strict`: refuse JSON-LD that would lose data (a property
   *   mapping to no IRI, an invalid language tag) instead of dropping it.
   * @returns The triples table `subject, predicate, object, objectType, datatype, lang`.
   *
   * @example The properties of a map
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const [first] = (await archive.resources()).objects() as { id: string; slug: string }[];
   * const triples = await archive.linkedDataTable(first.slug, "ttl");
   * console.log(triples.numRows() > 0);
   * ```
   */
  linkedDataTable(
    id: string,
    format: LinkedDataFormat = "jsonld",
    options: StrictOption = {},
  ): Promise<ColumnTable> {
    return linked.linkedDataTable(this, id, { ...options, format });
  }

  /**
   * Runs a SPARQL query against the database's endpoint (sites with `rdf`
   * only). It is parsed first (a syntax error is thrown locally with its line
   * and column, and nothing is sent), then sent as an idempotent GET, or as
   * an idempotent POST when long. For ASK, name the result type:
   * `await archive.sparql<boolean>("ASK { ... }")`.
   *
   * @param query The query; build it with the `sparql` template tag when it holds values.
   * @param options Format, method, database and companion columns (`lang`, `datatype`).
   * @returns SELECT: a table whose columns follow the variables, typed from
   *   the datatypes; ASK: a boolean; CONSTRUCT and DESCRIBE: a triples table
   *   `subject, predicate, object, objectType, datatype, lang`.
   *
   * @example Titles of a site
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const rows = await archive.sparql("SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }");
   * console.log(rows.columnNames());
   * ```
   */
  sparql<T extends SparqlResult = ColumnTable>(
    query: string,
    options: SparqlOptions = {},
  ): Promise<T> {
    return linked.sparql<T>(this, query, options);
  }

  /**
   * Every row of a SELECT, paged past the endpoint's result cap (LIMIT and
   * OFFSET under a stable ORDER BY, a COUNT to see a silent cap): see
   * {@linkcode sparqlAll}.
   *
   * @param query A SELECT query.
   * @param options Page size, the COUNT check, caps, signal, and the options of `sparql`.
   * @returns One table of every row.
   */
  sparqlAll(query: string, options: SparqlAllOptions = {}): Promise<ColumnTable> {
    return linked.sparqlAll(this, query, options);
  }

  /**
   * The pages of a SELECT as {@linkcode Archive.sparqlAll} reads them, one
   * table each: stream them into Parquet with `writeDataset`.
   *
   * @param query A SELECT query.
   * @param options As for `sparqlAll`.
   * @returns The pages, each with its own provenance (`page`, its rows, cache keys and endpoint).
   */
  sparqlPages(query: string, options: SparqlAllOptions = {}): AsyncGenerator<ColumnTable> {
    return linked.sparqlPages(this, query, options);
  }

  /**
   * Fetches and normalises an image's IIIF info document (version 3 `id`,
   * or version 2 `@id`). A private image answers 404 to everyone but its
   * account.
   *
   * @param asset The asset id.
   * @returns The normalised info.
   *
   * @example The size of a scan
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const { width, height } = await archive.iiifInfo("img-0001");
   * console.log(width, height);
   * ```
   */
  iiifInfo(asset: string): Promise<IiifInfo> {
    return images.iiifInfo(this, asset);
  }

  /**
   * Fetches an image through the IIIF Image API 3: a region, size,
   * rotation, quality and format of an uploaded image, as bytes (and a file
   * with `path`). The output size is worked out locally from the info
   * document and checked against its `maxWidth`, `maxHeight` and `maxArea`,
   * and upscaling needs `^`, before the image is requested.
   *
   * @param asset The asset id.
   * @param options The image request, `path` to save it, a signal.
   * @returns The bytes, the URL, the output size and the content type.
   *
   * @example A 300-pixel-wide PNG saved to a file
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const path = await Deno.makeTempFile({ suffix: ".png" });
   * const image = await archive.iiifImage("img-0001", { size: "300,", format: "png", path });
   * console.log(image.width, image.height, image.bytes.length);
   * await Deno.remove(path);
   * ```
   */
  iiifImage(asset: string, options: IiifImageFetchOptions = {}): Promise<IiifImage> {
    return images.iiifImage(this, asset, options);
  }

  /**
   * Builds an IIIF Image API 3 request URL,
   * `{id}/{region}/{size}/{rotation}/{quality}.{format}`; nothing is sent.
   *
   * @param asset The asset id, or an info document (its `id` or v2 `@id` is used).
   * @param options Region, size, rotation, quality and format.
   * @returns The URL.
   *
   * @example A 400-pixel-wide JPEG
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const url = archive.iiifImageUrl("img-0001", { size: "400,", format: "jpg" });
   * console.log(url);
   * ```
   */
  iiifImageUrl(asset: string | IiifInfo, options: IiifImageOptions = {}): string {
    return images.iiifImageUrl(this, asset, options);
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
   * {@linkcode OaiPmh.identify} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example The repository description
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const { granularity, earliestDatestamp } = await archive.identify();
   * console.log(granularity, earliestDatestamp);
   * ```
   */
  identify(options: StrictOption = {}): Promise<OaiIdentify> {
    return this.#oaiEndpoint.identify(options);
  }

  /**
   * {@linkcode OaiPmh.listMetadataFormats} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example The formats offered
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const formats = await archive.listMetadataFormats();
   * console.log(formats.array("metadataPrefix"));
   * ```
   */
  listMetadataFormats(options: { identifier?: string } = {}): Promise<ColumnTable> {
    return this.#oaiEndpoint.listMetadataFormats(options);
  }

  /**
   * {@linkcode OaiPmh.listSets} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example The sets
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const sets = await archive.listSets();
   * console.log(sets.numRows());
   * ```
   */
  listSets(): Promise<ColumnTable> {
    return this.#oaiEndpoint.listSets();
  }

  /**
   * {@linkcode OaiPmh.getRecord} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example One record
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const [identifier] = (await archive.harvest({ metadataPrefix: "oai_dc" })).array("identifier") as string[];
   * const record = await archive.getRecord(identifier, "oai_dc");
   * console.log(record.identifier === identifier);
   * ```
   */
  getRecord(
    identifier: string,
    metadataPrefix = "oai_dc",
    options: StrictOption & { raw?: boolean } = {},
  ): Promise<OaiRecord> {
    return this.#oaiEndpoint.getRecord(identifier, metadataPrefix, options);
  }

  /**
   * {@linkcode OaiPmh.harvest} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example An incremental harvest
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const state = `${await Deno.makeTempDir()}/letters.harvest.json`;
   * const records = await archive.harvest({ metadataPrefix: "oai_dc", state });
   * console.log(records.numRows());
   * ```
   */
  harvest(options: HarvestOptions = {}): Promise<ColumnTable> {
    return this.#oaiEndpoint.harvest(options);
  }

  /**
   * {@linkcode OaiPmh.harvestRecords} on this site's OAI-PMH endpoint (`/{account}/{db}/api/oai`);
   * documented there.
   *
   * @example Page by page
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * for await (const page of archive.harvestRecords({ metadataPrefix: "oai_dc" })) {
   *   console.log(page.records.length);
   * }
   * ```
   */
  harvestRecords(options: HarvestOptions = {}): AsyncGenerator<HarvestPage> {
    return this.#oaiEndpoint.harvestRecords(options);
  }

  /**
   * {@linkcode ResourceSync.resourceSync} on this site's ResourceSync source;
   * documented there.
   *
   * @example Discovery
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const { capabilities } = await archive.resourceSync();
   * console.log(capabilities);
   * ```
   */
  resourceSync(): Promise<ResourceSyncDiscovery> {
    return this.#resourceSync.resourceSync();
  }

  /**
   * {@linkcode ResourceSync.resourceList} on this site's ResourceSync source;
   * documented there.
   *
   * @example Every public resource
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const list = await archive.resourceList();
   * console.log(list.numRows());
   * ```
   */
  resourceList(options: { pages?: number } = {}): Promise<ColumnTable> {
    return this.#resourceSync.resourceList(options);
  }

  /**
   * {@linkcode ResourceSync.changeList} on this site's ResourceSync source;
   * documented there.
   *
   * @example Changes since New Year
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const changes = await archive.changeList({ from: "2026-01-01" });
   * console.log(changes.numRows());
   * ```
   */
  changeList(options: { from?: string | Date } = {}): Promise<ColumnTable> {
    return this.#resourceSync.changeList(options);
  }

  /**
   * {@linkcode ResourceSync.mirror} on this site's ResourceSync source;
   * documented there.
   *
   * @example Keeping a local list
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * const dir = await Deno.makeTempDir();
   * const result = await archive.mirror({ dir, state: `${dir}/letters.mirror.json` });
   * console.log(result);
   * ```
   */
  mirror(options: MirrorOptions): Promise<MirrorResult> {
    return this.#resourceSync.mirror(options);
  }

  /**
   * Issues an API key. The ID token and the returned secret are registered
   * as secrets (redacted from every error and log line) and the request is
   * never cached or retried.
   *
   * @param idToken An identity-provider ID token.
   * @param options The scopes wanted; default read and write.
   * @returns `{ key, publicId, account, scopes }`.
   *
   * @example Issue a read-only key
   * ```ts
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
   * import { SANDBOX_ID_TOKENS } from "../sandbox/archive/mod.ts";
   * const { key } = await archive.issueKey(SANDBOX_ID_TOKENS.shinano, { scopes: ["read"] });
   * console.log(key.length > 0);
   * ```
   */
  issueKey(idToken: string, options: { scopes?: ("read" | "write")[] } = {}): Promise<IssuedKey> {
    return writes.issueKey(this, idToken, options);
  }

  /**
   * Creates a database in the Archive's account. After a network error the
   * catalogue is read before anything is resent, so a lost answer cannot
   * create it twice.
   *
   * @param input The slug and title.
   * @returns The new database.
   *
   * @example A new site
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const db = await archive.createDatabase({ slug: "postcards", title: "Postcards" });
   * console.log(db);
   * ```
   */
  createDatabase(input: { slug: string; title: string }): Promise<DatabaseRecord> {
    return writes.createDatabase(this, input);
  }

  /**
   * Updates the site settings. When `service` changes, the site's service
   * path (`/api/{account}/{service}/{db}`, as in the SPARQL path) moves: the
   * move is remembered for later requests and reported as `moved`. No other
   * endpoint is called to confirm it, since the spec lists none; a later
   * request to the old path answers 307 and is followed anyway.
   *
   * @param settings The settings to change (`service`, `card`, `provider`, `ogImage`, `rdf`).
   * @returns The database and the move, if any.
   *
   * @example Switch the serving app
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { moved } = await archive.updateSettings({ service: "records" });
   * console.log(moved);
   * ```
   */
  updateSettings(settings: Record<string, unknown>): Promise<UpdateSettingsResult> {
    return writes.updateSettings(this, settings);
  }

  /**
   * Creates a resource. Never retried blindly: if the answer is lost to a
   * network error, the resource is read back by slug. One that holds what was
   * sent is this create, arrived; one that differs existed before and is a
   * conflict (`ConflictError`), never returned as created. When none is there
   * the create is sent once more, and a 409 to that second send is checked
   * the same way, since the first send may have landed late.
   *
   * @param input The slug, type, title, metadata, visibility and parent.
   * @returns The created resource.
   *
   * @example A new letter
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * await archive.createResource({
   *   slug: "letter-9001",
   *   title: "A letter",
   *   metadata: { "dcterms:creator": "Mori Ōgai" },
   * });
   * ```
   */
  createResource(input: CreateResourceInput): Promise<ArchiveResource> {
    return writes.createResource(this, input);
  }

  /**
   * Updates the given fields of a resource; the others stay. Metadata keys
   * given are set, the others kept.
   *
   * @param id The slug or UUID.
   * @param changes The fields to change.
   * @returns The resource after the change.
   *
   * @example Retitle
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const [first] = (await archive.resources()).objects() as { id: string; slug: string }[];
   * await archive.updateResource(first.slug, { title: "Letter to Natsume Sōseki" });
   * ```
   */
  updateResource(
    id: string,
    changes: Partial<Omit<CreateResourceInput, "slug">>,
  ): Promise<ArchiveResource> {
    return writes.updateResource(this, id, changes);
  }

  /**
   * Deletes a resource (never retried). Note that ResourceSync change lists
   * do not report deletions.
   *
   * @param id The slug or UUID.
   * @returns Nothing once it is deleted.
   *
   * @example Delete a draft
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * await archive.createResource({ slug: "letter-9001", title: "A letter" });
   * await archive.deleteResource("letter-9001");
   * ```
   */
  deleteResource(id: string): Promise<void> {
    return writes.deleteResource(this, id);
  }

  /**
   * Creates an account-wide authority record (needs the owner's write key).
   *
   * @param input The slug, entityType, prefLabel, altLabels, sameAs and coordinates.
   * @returns The entity as created.
   *
   * @example A place
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * await archive.createEntity({
   *   slug: "shimoda",
   *   entityType: "place",
   *   prefLabel: { en: "Shimoda", ja: "下田" },
   *   altLabels: ["Simoda"],
   *   sameAs: [],
   * });
   * ```
   */
  createEntity(input: CreateEntityInput): Promise<ArchiveEntity> {
    return writes.createEntity(this, input);
  }

  /**
   * The account's usage (a read with the key: it needs read scope, and is retried like any read). The shape is not given by the platform, so the
   * answer is handed back as sent (the sandbox sends `databases`,
   * `resources`, `assets`, `storage_bytes`, `requests`).
   *
   * @returns The usage object.
   *
   * @example Storage used
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { storage_bytes } = await archive.usage();
   * console.log(storage_bytes);
   * ```
   */
  usage(): Promise<Record<string, unknown>> {
    return writes.usage(this);
  }

  /**
   * The custom domains of the signed-in account (the `session` option).
   *
   * @returns The domains.
   *
   * @example List
   * ```ts
   * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
   * });
   * for (const d of await archive.domains()) console.log(d.host, d.status);
   * ```
   */
  domains(): Promise<CustomDomain[]> {
    return writes.domains(this);
  }

  /**
   * Adds a custom domain: POST `{host}` under the identity-provider session,
   * as the spec says (which database it serves is the platform's business).
   * A platform subdomain is active at once; an external one returns the CNAME
   * and TXT records to set before {@linkcode Archive.verifyDomain}.
   *
   * @param host The host name.
   * @returns The domain with its records.
   *
   * @example An external domain
   * ```ts
   * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
   * });
   * const { records } = await archive.addDomain("letters.example.org");
   * console.log(records);
   * ```
   */
  addDomain(host: string): Promise<CustomDomain> {
    return writes.addDomain(this, host);
  }

  /**
   * Asks the platform to check an external domain's DNS records and
   * activate it. Still `pending` means the records are not visible yet.
   *
   * @param host The host name.
   * @returns The domain, with its status and the records to set.
   *
   * @example Verify
   * ```ts
   * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
   * });
   * const { records } = await archive.addDomain("letters.example.org");
   * for (const record of records ?? []) sandbox.publishDns(record.value);
   * const { status } = await archive.verifyDomain("letters.example.org");
   * console.log(status);
   * ```
   */
  verifyDomain(host: string): Promise<CustomDomain> {
    return writes.verifyDomain(this, host);
  }

  /**
   * Removes a custom domain of the signed-in account (`DELETE
   * /api/me/domains` with `{host}`, under the `session`); the site is then
   * served under its platform address only. Sent once, never retried.
   *
   * @param host The host name, as added.
   * @returns Nothing once it is removed; a host the account does not have is a `NotFoundError`.
   *
   * @example Give up an external domain
   * ```ts
   * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
   * });
   * await archive.addDomain("letters.example.org");
   * await archive.removeDomain("letters.example.org");
   * ```
   */
  removeDomain(host: string): Promise<void> {
    return writes.removeDomain(this, host);
  }

  /**
   * Imports resources. A table is checked locally (slug column, unique
   * slugs) and written as CSV; CSV text is sent as it is. Never retried.
   *
   * @param tableOrCsv An Arquero table or CSV text with a header row.
   * @returns Counts of created and updated resources, and the rows refused.
   *
   * @example Import a table
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * import * as aq from "arquero";
   * const table = aq.table({ slug: ["a-1"], title: ["書簡, 一通"], "dcterms:creator": ["森鷗外"] });
   * const { created } = await archive.importCsv(table);
   * console.log(created);
   * ```
   */
  importCsv(tableOrCsv: ColumnTable | string): Promise<ImportResult> {
    return writes.importCsv(this, tableOrCsv);
  }

  /**
   * Uploads an image and waits until it is ready: the PUT streams the file
   * (never held whole in memory) with progress, then the asset is finalized
   * and polled with progress until `ready`, a failure status (reported with
   * what the server said) or the timeout, whose error names the last status;
   * statuses it does not know keep it polling. Never retried.
   *
   * @param file A path, file URL, Blob or bytes (streamed, never buffered whole).
   * @param options `derivative` (`ptif`), `isPublic`, `contentType`, `timeoutMs`, `pollMs`.
   * @returns The ready asset `{ id, status, width, height, iiif, isPublic }`.
   *
   * @example Upload a scan
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { bytes } = await archive.iiifImage("img-0001", { size: "40,", format: "png" });
   * const asset = await archive.upload(bytes, { derivative: "ptif", isPublic: true, pollMs: 10 });
   * console.log(asset.width, asset.height, asset.iiif);
   * ```
   */
  upload(
    file: string | URL | Blob | Uint8Array,
    options: UploadOptions = {},
  ): Promise<UploadedAsset> {
    return images.upload(this, file, options);
  }

  /**
   * One look at an upload's conversion, with no waiting: its status as the
   * platform reports it (`ready` once converted; other names mean not yet, or
   * a failure), and its size and IIIF base once ready.
   *
   * @param asset The asset id, or an uploaded asset.
   * @param options `signal` cancels the request.
   * @returns The asset as it stands.
   *
   * @example Check on an upload started with `wait: false`
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { bytes } = await archive.iiifImage("img-0001", { size: "40,", format: "png" });
   * const started = await archive.upload(bytes, { wait: false });
   * console.log((await archive.uploadStatus(started)).status);
   * ```
   */
  uploadStatus(
    asset: string | { id: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<UploadedAsset> {
    return images.uploadStatus(this, asset, options);
  }

  /**
   * Waits until an upload is converted, with the poll options every wait
   * shares: `pollMs` between polls (default 1,000), `timeoutMs` (default 10
   * minutes; the error names the last status), `signal` cancels the pause
   * and the poll in flight. A status the platform does not document keeps
   * the wait going; a failure word (fail, error, reject...) ends it.
   *
   * @param asset The asset id, or an uploaded asset.
   * @param options `pollMs`, `timeoutMs`, `signal`.
   * @returns The ready asset.
   *
   * @example Upload many scans, then wait for all of them
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { bytes } = await archive.iiifImage("img-0001", { size: "40,", format: "png" });
   * const started = await Promise.all([bytes, bytes].map((b) => archive.upload(b, { wait: false })));
   * const ready = await Promise.all(started.map((a) => archive.waitForUpload(a, { pollMs: 10 })));
   * console.log(ready.map((a) => a.status));
   * ```
   */
  waitForUpload(asset: string | { id: string }, options: PollOptions = {}): Promise<UploadedAsset> {
    return images.waitForUpload(this, asset, options);
  }

  /**
   * Makes an image public or private. A private image's IIIF info answers
   * 404 to everyone but its account.
   *
   * @param asset The asset id, or an uploaded asset.
   * @param isPublic The new visibility.
   * @returns The asset after the change.
   *
   * @example Publish
   * ```ts
   * import { SANDBOX_KEYS, startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const archive = new Archive(sandbox.url, {
   *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
   * });
   * const { bytes } = await archive.iiifImage("img-0001", { size: "40,", format: "png" });
   * const asset = await archive.upload(bytes, { pollMs: 10 });
   * await archive.setAssetPublic(asset, true);
   * ```
   */
  setAssetPublic(asset: string | { id: string }, isPublic: boolean): Promise<UploadedAsset> {
    return images.setAssetPublic(this, asset, { isPublic });
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
