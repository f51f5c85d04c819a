/**
 * A local archive platform for tests, notebooks and the demo, following
 * the spec for the read endpoints, with seeded deterministic data.
 *
 * @module
 */

import { extendServer, type LocalServer, serveLocal } from "../_serve.ts";
import { type SandboxMode, shapesSeed } from "../_strictness.ts";
import { callerOf } from "./_auth.ts";
import { accountsHandler } from "./accounts_handler.ts";
import { entityHandler } from "./entities_handler.ts";
import { iiifHandler } from "./iiif_handler.ts";
import { dataUriHandler, getResourceHandler, listResourcesHandler } from "./resources_handler.ts";
import { searchHandler } from "./search_handler.ts";
import { sparqlHandler } from "./sparql_handler.ts";
import { rdfIndexHandler } from "./rdf_index_handler.ts";
import { sessionAccount } from "./me_handler.ts";
import { buildStore } from "./_store.ts";
import { createHarvesting, type HarvestingOptions, hasTimestamps } from "./_harvesting.ts";
import type { OaiProvider } from "./oai/oai_provider.ts";
import { patchResource, type ResourcePatch } from "./_mutations.ts";
import type { SeedResource } from "./seed.ts";
import { loadSnapshot } from "./_persist.ts";
import { writeRoute } from "./_write_routes.ts";
import { finishConversions } from "./uploads_handler.ts";
import {
  type ArchiveFaults,
  type ArchiveShapes,
  archiveShapes,
  type ArchiveState,
  type Caller,
  canReadDatabase,
  errorResponse,
  indexSeed,
  type LoggedRequest,
} from "./_state.ts";
import { type ArchiveSeed, seedArchive, seedKeys, type SeedOptions } from "./seed.ts";

/** Options of {@linkcode startArchiveSandbox}. */
export interface ArchiveSandboxOptions extends SeedOptions, HarvestingOptions {
  /** Most requests answered (see serveLocal). */
  maxRequests?: number;
  /** The port to listen on when free, else an ephemeral one (see `serveLocal`). Default 0. */
  port?: number;
  /**
   * A directory where writes persist: the data is saved there after every
   * write and loaded from it on the next start, uploads are kept beside it.
   * Without one, uploads go to a temporary directory removed on close.
   */
  dataDir?: string;
  /** Largest single upload, in bytes; larger ones answer 413. Default 50 MB. */
  maxUploadBytes?: number;
  /**
   * How long the image conversion takes, in ms. Default 200. `Infinity`:
   * until {@linkcode ArchiveSandbox.finishConversions} is called.
   */
  conversionMs?: number;
  /**
   * `strict` (default): parameters, body fields and endpoints the spec does
   * not list answer its error shape; `lenient` (demos) lets them pass.
   */
  mode?: SandboxMode;
  /**
   * Picks the "not shown" shapes (catalogue envelope, pending upload
   * statuses, extra fields); default from `TIDEPOOL_SANDBOX_SEED`, else 0.
   */
  shapesSeed?: number;
  /** Shapes to force, over those of the seed. */
  shapes?: Partial<ArchiveShapes>;
}

/** A running archive sandbox. */
export interface ArchiveSandbox extends LocalServer {
  /** The data it serves. */
  readonly seed: ArchiveSeed;
  /** Fault switches; set them to make the sandbox fail that way. */
  readonly faults: ArchiveFaults;
  /** Every request answered: method, URL, and whether it carried a key. */
  readonly requests: readonly LoggedRequest[];
  /** The OAI-PMH provider of each public site (`account/db`), with its hit counts. */
  readonly oaiProviders: ReadonlyMap<string, OaiProvider>;
  /**
   * Changes a resource as a PATCH would, stamping its update time with now,
   * so harvests and change lists see it.
   */
  updateResource(
    resource: { account: string; db: string; slug: string },
    patch: ResourcePatch,
  ): SeedResource;
  /** Publishes a DNS TXT record value, so verifying the external domain that needs it succeeds. */
  publishDns(value: string): void;
  /** Switches a database to another service; its old SPARQL path then answers 307. */
  switchService(
    parameters: { account: string; db: string; service: "dl" | "text" | "records" },
  ): void;
  /**
   * Ends every image conversion under way now (uploads become `ready` or
   * `failed`), for a test that decides by an event when that happens.
   *
   * @returns How many conversions ended.
   */
  finishConversions(): Promise<number>;
}

/**
 * Starts the sandbox on 127.0.0.1 with port 0.
 *
 * @param options The seed, the scale and the request bound.
 * @returns The running sandbox; close it when done.
 *
 * @example Start, use, close
 * ```ts
 * import { Archive } from "../../archive/archive.ts";
 * const sandbox = await startArchiveSandbox();
 * try {
 *   const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 *   console.log((await archive.search({ q: "Tokyo" })).total);
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export async function startArchiveSandbox(
  options: ArchiveSandboxOptions = {},
): Promise<ArchiveSandbox> {
  const snapshotPath = options.dataDir ? `${options.dataDir}/archive.json` : undefined;
  const snapshot = snapshotPath ? await loadSnapshot(snapshotPath) : undefined;
  const seed = snapshot?.seed ?? seedArchive(options);
  const uploads = options.dataDir ? `${options.dataDir}/uploads` : await Deno.makeTempDir({
    prefix: "tidepool-archive-uploads-",
  });
  await Deno.mkdir(uploads, { recursive: true });
  const state: ArchiveState = {
    seed,
    origin: "",
    keys: snapshot?.keys ?? await seedKeys(),
    storage: { uploads, snapshot: snapshotPath },
    maxUploadBytes: options.maxUploadBytes ?? 50_000_000,
    conversionMs: options.conversionMs ?? 200,
    timers: new Set(),
    converting: new Map(),
    dns: new Set(),
    databases: indexSeed(seed),
    entities: new Map(seed.accounts.map((a) => [a.slug, a.entities])),
    faults: { quotaExceeded: false, oai: {} },
    shapes: { ...archiveShapes(shapesSeed(options.shapesSeed)), ...options.shapes },
    mode: options.mode ?? "strict",
    log: [],
  };
  const server = serveLocal((request) => route(state, request), {
    maxRequests: options.maxRequests,
    port: options.port,
  });
  state.origin = server.url;
  state.sparql = buildStore(state);
  state.harvesting = createHarvesting(state, state.faults.oai, options);
  const stopServer = server.close;
  async function close() {
    for (const timer of state.timers) clearTimeout(timer);
    state.timers.clear();
    await stopServer();
    if (!options.dataDir) await Deno.remove(uploads, { recursive: true }).catch(() => {});
  }
  return extendServer(
    server,
    {
      close,
      seed,
      faults: state.faults,
      requests: state.log,
      oaiProviders: state.harvesting.providers,
      publishDns(value) {
        state.dns.add(value);
      },
      finishConversions: () => finishConversions(state),
      updateResource({ account, db, slug }, patch) {
        const index = state.databases.get(`${account}/${db}`);
        const resource = index?.bySlug.get(slug);
        if (!index || !resource) throw new Error(`No resource ${account}/${db}/${slug}`);
        return patchResource(index, resource, patch);
      },
      switchService({ account, db, service }) {
        const index = state.databases.get(`${account}/${db}`);
        if (!index) throw new Error(`No database ${account}/${db}`);
        index.formerServices.add(index.db.settings.service);
        index.formerServices.delete(service);
        index.db.settings.service = service;
      },
    } satisfies Omit<ArchiveSandbox, keyof LocalServer> & { close(): Promise<void> },
  );
}

async function route(state: ArchiveState, request: Request): Promise<Response> {
  const url = new URL(request.url);
  state.log.push({
    method: request.method,
    url: url.pathname + url.search,
    authorized: request.headers.has("authorization"),
  });
  if (url.pathname.startsWith("/api/me/")) {
    // Identity-provider endpoints: the bearer is an ID token, not an API key.
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    return await writeRoute(state, parts, request, url, null)!;
  }
  // `scope=mine` on the catalogue takes an identity-provider session too (spec section 5).
  const session = url.pathname === "/api/accounts" ? sessionAccount(request) : undefined;
  if (session && (request.method === "GET" || request.method === "HEAD")) {
    return accountsHandler(state, url, { account: session, scopes: ["read"], admin: false });
  }
  const found = await callerOf(state, request);
  if (found === "invalid") return errorResponse(401, "Invalid API key");
  if (state.faults.quotaExceeded) {
    return errorResponse(402, "Monthly request quota exceeded for this account");
  }
  const caller: Caller | null = found;
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const read = request.method === "GET" || request.method === "HEAD";
  const harvested = await harvestRoute(state, parts, request);
  if (harvested) return harvested;
  const written = await writeRoute(state, parts, request, url, caller);
  if (written) return written;
  if (parts[0] === "api") {
    if (parts[1] === "accounts" && parts.length === 2 && read) {
      return accountsHandler(state, url, caller);
    }
    const account = parts[1];
    if (parts[2] === "entities" && parts.length === 4 && read) {
      return entityHandler(state, account, parts[3], url);
    }
    if (parts[2] === "iiif-img" && parts[3] === "3" && parts.length >= 5 && read) {
      return iiifHandler(state, account, parts[4], parts.slice(5), caller);
    }
    if (parts.length === 5 && parts[4] === "rdf-index" && request.method === "POST") {
      return rdfIndexHandler(state, account, parts[2], parts[3], caller);
    }
    if (parts.length === 5 && parts[4] === "sparql" && (read || request.method === "POST")) {
      const index = state.databases.get(`${account}/${parts[3]}`);
      if (!index || !canReadDatabase(index.db, caller)) {
        return errorResponse(404, `Database not found: ${account}/${parts[3]}`);
      }
      return await sparqlHandler(state, index, parts[2], request, url);
    }
    return errorResponse(404, `No endpoint ${request.method} ${url.pathname}`);
  }
  const index = state.databases.get(`${parts[0]}/${parts[1]}`);
  if (!index || !canReadDatabase(index.db, caller)) {
    return errorResponse(404, `Database not found: ${parts[0]}/${parts[1]}`);
  }
  if (!read) return errorResponse(405, "The sandbox serves reads only");
  if (parts[2] === "api" && parts[3] === "search" && parts.length === 4) {
    return searchHandler(state, index, url, caller);
  }
  if (parts[2] === "api" && parts[3] === "resources") {
    if (parts.length === 4) return listResourcesHandler(state, index, url, caller);
    if (parts.length === 5) return getResourceHandler(state, index, parts[4], url, caller);
  }
  if (parts[2] === "data" && parts.length === 4) {
    return dataUriHandler(state, index, parts[3], request, caller);
  }
  return errorResponse(404, `No endpoint ${request.method} ${url.pathname}`);
}

/**
 * OAI-PMH (`/{account}/{db}/api/oai`, GET or POST) and ResourceSync
 * (`/.well-known/resourcesync`, `/{account}/{db}/api/resourcesync/*`):
 * public sites only, whatever the key; ResourceSync also 404s for sites
 * without modification timestamps.
 */
async function harvestRoute(
  state: ArchiveState,
  parts: string[],
  request: Request,
): Promise<Response | undefined> {
  const harvesting = state.harvesting!;
  if (parts[0] === ".well-known" && parts[1] === "resourcesync" && parts.length === 2) {
    return harvesting.resourceSync(request);
  }
  if (parts[2] !== "api" || (parts[3] !== "oai" && parts[3] !== "resourcesync")) return undefined;
  const site = `${parts[0]}/${parts[1]}`;
  const index = state.databases.get(site);
  if (!index || !index.db.is_public) return errorResponse(404, `Database not found: ${site}`);
  if (parts[3] === "oai" && parts.length === 4) {
    if (request.method !== "GET" && request.method !== "POST") {
      return errorResponse(405, "OAI-PMH answers GET and POST");
    }
    return await harvesting.providers.get(site)!.handle(request);
  }
  if (parts[3] === "resourcesync") {
    if (!hasTimestamps(index)) {
      return errorResponse(
        404,
        `ResourceSync is not offered for ${site}: its search is ${index.db.settings.search}, without modification timestamps`,
      );
    }
    return harvesting.resourceSync(request) ?? errorResponse(404, `No endpoint ${request.url}`);
  }
  return undefined;
}
