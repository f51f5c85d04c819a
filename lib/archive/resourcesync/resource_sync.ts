/**
 * A ResourceSync (ANSI/NISO Z39.99-2017) destination: discovery, resource
 * lists of every page and sitemap index, change lists, and a mirror that
 * keeps a baseline up to date.
 *
 * @module
 */

import { ARCHIVE_PACING } from "../_pacing.ts";
import { noteAsOf } from "../../table/call_trace.ts";
import { withProvenance } from "../../table/with_provenance.ts";
import type { ColumnTable } from "arquero";
import { HttpClient } from "../../http/client.ts";
import {
  NotFoundError,
  ProtocolError,
  TidepoolError,
  UnknownValueError,
} from "../../errors/errors.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../../http/options.ts";
import { checkOptions } from "../../options/check_options.ts";
import { checkCall, RESOURCE_SYNC_RULES } from "../_option_rules.ts";
import { buildTable } from "../../table/build_table.ts";
import { parseUtc } from "../oai/_dates.ts";
import { dateInput, windowStart } from "../../table/date_input.ts";
import { entrySchema } from "./_schema.ts";
import type { SitemapDocument, SitemapEntry } from "./_sitemap.ts";
// The page walk, the sitemap reader and the mirror load on first use, so
// that importing tidepool stays quick (bench/import_bench.ts).
import type {
  ListOptions,
  MirrorOptions,
  MirrorResult,
  ResourceSyncDiscovery,
  ResourceSyncOptions,
} from "./types.ts";

/** Where a list page is: its URL (and query), its number, and its place in an index. */
interface ListCursor {
  url: string;
  query?: Record<string, string>;
  /** The page number within a paged list (1 for the first). */
  p: number;
  /** A numbered page past the end may answer 404, which ends the list. */
  quiet?: boolean;
  /** The sitemap's position in the index, when the list is an index. */
  map?: number;
}

const NOT_OFFERED_HINT =
  "Sites backed by an external search engine or federated search have no modification timestamps and do not offer ResourceSync; harvest them with OAI-PMH or search instead";

/**
 * A client of one ResourceSync source.
 *
 * @example Every resource of a site as a table
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * const rs = new ResourceSync(sandbox.url, { site: "shinano/letters", progress: false });
 * const resources = await rs.resourceList();
 * console.log(resources.numRows(), resources.columnNames());
 * ```
 */
export class ResourceSync {
  readonly #http: HttpClient;
  readonly #options: ResourceSyncOptions;
  #discovery?: Promise<ResourceSyncDiscovery>;

  /**
   * Creates a reader of one site's ResourceSync documents, either on its own client or sharing one.
   *
   * @param endpoint An `HttpClient` of the platform, or the platform's URL.
   * @param options The site or capability list (a capability-list path may
   *   be given as a string), and client options when a URL is given.
   */
  constructor(
    endpoint: HttpClient | string,
    options: string | (ResourceSyncOptions & ClientOptions) = {},
  ) {
    const opts = typeof options === "string" ? { capabilityList: options } : checkOptions(
      "new ResourceSync",
      options,
      typeof endpoint === "string"
        ? { ...CLIENT_OPTION_RULES, ...RESOURCE_SYNC_RULES }
        : RESOURCE_SYNC_RULES,
    );
    this.#http = typeof endpoint === "string"
      ? new HttpClient(endpoint, { ...opts, defaults: ARCHIVE_PACING })
      : endpoint;
    this.#options = opts;
  }

  /**
   * Finds the capability list: from `/.well-known/resourcesync` (the source
   * description) unless one was given, then reads it.
   *
   * @returns The capability list and the URL of each capability.
   */
  resourceSync(): Promise<ResourceSyncDiscovery> {
    this.#discovery ??= this.#discover().catch((error) => {
      this.#discovery = undefined;
      throw error;
    });
    return this.#discovery;
  }

  async #discover(): Promise<ResourceSyncDiscovery> {
    let sourceDescription: string | undefined;
    let capabilityLists: string[] = [];
    let capabilityList = this.#options.capabilityList
      ? this.#http.url(this.#options.capabilityList).toString()
      : undefined;
    if (!capabilityList) {
      sourceDescription = this.#http.url("/.well-known/resourcesync").toString();
      const description = await this.#read(sourceDescription, "ResourceSync source description");
      capabilityLists = description.doc.entries
        .filter((e) => !e.capability || e.capability === "capabilitylist")
        .map((e) => e.loc);
      const site = this.#options.site;
      const matching = site
        ? capabilityLists.filter((loc) => new URL(loc).pathname.startsWith(`/${site}/`))
        : capabilityLists;
      if (matching.length !== 1) {
        // A site the source does not list, or several lists to choose from, is the caller's to fix.
        const callers = (site !== undefined && matching.length === 0) || matching.length > 1;
        throw new (callers ? UnknownValueError : TidepoolError)(
          matching.length === 0
            ? `ResourceSync is not offered for ${
              site ?? "this source"
            }: the source description names no capability list${site ? " for it" : ""}`
            : `The source description names ${matching.length} capability lists; choose one with the site option`,
          { details: capabilityLists.join(" "), hint: 'Pass site: "account/db" or capabilityList' },
        );
      }
      capabilityList = matching[0];
      this.#checkAuthority(capabilityList, sourceDescription);
    } else {
      capabilityLists = [capabilityList];
    }
    const { doc } = await this.#read(capabilityList, "ResourceSync capability list");
    const capabilities: Record<string, string> = {};
    for (const entry of doc.entries) {
      if (entry.capability) capabilities[entry.capability] = entry.loc;
    }
    return { sourceDescription, capabilityList, capabilityLists, capabilities };
  }

  /**
   * Every resource: every page (`p`) of the resource list, or every
   * sitemap of its index.
   *
   * @param options `pages`: the most pages to read (default all); the per-call signal and caps.
   * @returns A table: `loc`, `lastmod`, `change`, `html`, `length`, `type`, `hash`, `datetime`.
   */
  async resourceList(options: ListOptions = {}): Promise<ColumnTable> {
    checkCall("resourceList", options);
    return await this.#table("resourceList", { ...options }, async () => {
      const url = await this.#capability("resourcelist");
      return buildTable(entrySchema, await this.#entries(url, "resource list", options));
    });
  }

  /**
   * The changes since a time (created and updated only: this source does
   * not report deletions).
   *
   * @param options `from`: changes at or after this time (ISO 8601 or Date); the per-call signal and caps.
   * @returns A table with the columns of {@linkcode ResourceSync.resourceList}.
   */
  async changeList(options: ListOptions & { from?: string | Date } = {}): Promise<ColumnTable> {
    checkCall("changeList", options);
    if (options.from !== undefined) windowStart(options.from, "from"); // before anything is sent
    return await this.#table("changeList", { ...options }, async () => {
      const url = await this.#capability("changelist");
      const { from, ...listOptions } = options;
      return buildTable(entrySchema, await this.changeEntries(url, from, listOptions));
    });
  }

  /**
   * Keeps a mirror up to date: a baseline from the resource list, then
   * increments from the change list, and a full re-list every
   * `relistAfterDays` to find deletions, which change lists do not report.
   *
   * With `dir`, the resources' contents are kept there too, each under the
   * path of its URL made safe, up to the client's `concurrency` downloads at
   * once, only from the source's own host (unless `allowOtherHosts`), each
   * checked against the `length` and `md5`/`sha-256` its entry lists before
   * it gets its name. A run that stops resumes without fetching finished
   * files again; a re-list deletes the files of resources gone, only where a
   * file is as tidepool wrote it; a file tidepool did not write is never
   * replaced. Resources that could not be kept end the run in a
   * `MirrorError` naming each, once every other file is written.
   *
   * @param options The state file, the re-list period, the folder, the cap and the signal.
   * @returns The entries of this run, what they can tell, and the files written and deleted.
   *
   * @example A mirror that keeps the files
   * ```ts
   * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const rs = new ResourceSync(sandbox.url, { site: "shinano/letters", concurrency: 4, progress: false });
   * const dir = await Deno.makeTempDir();
   * const run = await rs.mirror({ state: `${dir}/letters.mirror.json`, dir: `${dir}/letters` });
   * console.log(run.kind, run.written.length, run.unchanged, run.deleted);
   * ```
   */
  async mirror(options: MirrorOptions): Promise<MirrorResult> {
    checkCall("mirror", options);
    return await (await import("./_mirror.ts")).runMirror(this, options);
  }

  /**
   * @internal What a mirror's downloads need: the client, the host that named
   * the lists and the URL they were read by (whose credentials a location kept
   * without them is asked with), the opt-in.
   */
  async mirrorContext(): Promise<
    { http: HttpClient; host: string; source: string; allowOtherHosts: boolean }
  > {
    const discovery = await this.resourceSync();
    return {
      http: this.#http,
      host: new URL(discovery.capabilityList).host,
      source: discovery.capabilityList,
      allowOtherHosts: this.#options.allowOtherHosts === true,
    };
  }

  /** @internal The entries of the resource list with the time of the list. */
  async resourceEntries(): Promise<{ entries: SitemapEntry[]; at: string | null }> {
    const url = await this.#capability("resourcelist");
    let at: string | null = null;
    const entries = await this.#entries(url, "resource list", {}, (doc) => at ??= doc.at);
    return { entries, at };
  }

  /** @internal The entries of the change list since a time. */
  async changeEntries(
    url?: string,
    from?: string | Date,
    options: ListOptions = {},
  ): Promise<SitemapEntry[]> {
    checkCall("changeEntries", options);
    const since = from === undefined ? undefined : dateInput(from, "from");
    const list = url ?? await this.#capability("changelist");
    const query = since ? { from: since.toISOString().replace(/\.000Z$/, "Z") } : undefined;
    const entries = await this.#entries(list, "change list", {
      ...options,
      query,
      since: since ?? undefined,
    });
    if (!since) return entries;
    // A source that ignores `from` is filtered here, so the answer means the same everywhere.
    return entries.filter((e) => {
      const when = parseUtc((e.datetime ?? e.lastmod) ?? undefined);
      return !when || when.getTime() >= since.getTime();
    });
  }

  /** Runs a table call with its provenance; the list's `at` (or `from`) time is its "as of". */
  #table(
    operation: string,
    params: Record<string, unknown>,
    run: () => Promise<ColumnTable>,
  ): Promise<ColumnTable> {
    const site = this.#options.site;
    return withProvenance({
      service: this.#http.baseUrl,
      operation: `ResourceSync.${operation}`,
      params: { site, capabilityList: this.#options.capabilityList, ...params },
    }, run);
  }

  async #capability(name: string): Promise<string> {
    const discovery = await this.resourceSync();
    const url = discovery.capabilities[name];
    if (!url) {
      throw new TidepoolError(
        `ResourceSync ${name} is not offered: the capability list ${discovery.capabilityList} does not name one`,
        { details: Object.keys(discovery.capabilities).join(", ") },
      );
    }
    this.#checkAuthority(url, discovery.capabilityList);
    return url;
  }

  async #entries(
    url: string,
    what: string,
    options: ListOptions & { query?: Record<string, string>; since?: Date },
    onDoc?: (doc: SitemapDocument) => void,
  ): Promise<SitemapEntry[]> {
    const pageSize = this.#options.pageSize ?? 10_000;
    const limit = options.pages ?? Infinity;
    const out: SitemapEntry[] = [];
    let maps: SitemapEntry[] = []; // the sitemaps of an index, once read
    let listed = 0; // documents of entries read (list pages or sitemaps)
    const listedKeys = new Set<string>();
    const mapAt = (index: number): ListCursor | null =>
      index < maps.length && listed < limit
        ? { url: maps[index].loc, query: options.query, p: 1, map: index }
        : null;
    const { minIntervalMs, concurrency } = this.#http.pacing;
    const { walkPages } = await import("../../paging/walk_pages.ts");
    const pages = walkPages<
      ListCursor,
      { doc: SitemapDocument; url: string } | undefined,
      SitemapEntry
    >(
      {
        label: `ResourceSync ${what}`,
        unit: "entries",
        call: what === "change list" ? "changeList()" : "resourceList()",
        eager: true,
        readAhead: minIntervalMs === 0 ? concurrency : 1,
        cursor: {
          name: "link",
          first: { url, query: options.query, p: 1 },
          key: (c) => `${c.url} ${JSON.stringify(c.query ?? {})}`,
          advance: (_cursor, read) => read.next ?? null,
          // The sitemaps of an index are known once it is read.
          predict: (c) => c.map === undefined ? null : mapAt(c.map + 1),
        },
        fetch: (c, signal) =>
          this.#read(
            c.url,
            c.map !== undefined || c.p > 1 ? `ResourceSync ${what} page` : `ResourceSync ${what}`,
            c.query,
            { quiet404: c.quiet, signal },
          ).catch((error) => {
            // A page number past the end may answer 404: the list ended.
            if (c.quiet && error instanceof NotFoundError) return undefined;
            throw error;
          }),
        fingerprint: (page) => page?.doc.entries.map((entry) => entry.loc).join("\n") ?? "",
        read: (page, c) => {
          if (!page) return { rows: [], done: true };
          const { doc } = page;
          if (c.p === 1 && c.map === undefined) {
            noteAsOf({ at: doc.at });
            onDoc?.(doc);
          }
          if (c.p === 1 && c.map === undefined && doc.kind === "sitemapindex") {
            maps = doc.entries.filter((map) => {
              const until = parseUtc(map.until ?? undefined);
              return !(options.since && until && until.getTime() < options.since.getTime());
            });
            for (const map of maps) this.#checkAuthority(map.loc, page.url);
            return { rows: [], next: mapAt(0) };
          }
          if (c.p > 1 && c.map === undefined && doc.entries.length === 0) {
            return { rows: [], done: true };
          }
          listed++;
          for (const entry of doc.entries) out.push(entry);
          // Every entry is kept as listed; the walk counts only entries not
          // listed before, so a source that links on over the same entries stops.
          const rows = doc.entries.filter((entry) => {
            const key = entryKey(entry);
            return !listedKeys.has(key) && !!listedKeys.add(key);
          });
          if (c.map !== undefined) return { rows, next: mapAt(c.map + 1) };
          if (listed >= limit) return { rows, next: null };
          const link = doc.links.next;
          if (!link && doc.entries.length < pageSize) return { rows, next: null };
          if (link) this.#checkAuthority(link, url);
          const next: ListCursor = link
            ? { url: link, p: c.p + 1 }
            : { url, query: { ...options.query, p: String(c.p + 1) }, p: c.p + 1, quiet: true };
          return { rows, next };
        },
      },
      this.#http,
      options,
    );
    for await (const _ of pages) {
      // The entries are collected as each page is read.
    }
    return out;
  }

  #checkAuthority(link: string, document: string) {
    if (this.#options.allowOtherHosts) return;
    const target = new URL(link, document);
    const named = new URL(document);
    if (target.host !== named.host) {
      throw new TidepoolError(
        `Refusing to follow a ResourceSync link to another host: ${named.host} named ${target.href}`,
        { hint: "Pass allowOtherHosts: true if you trust that host" },
      );
    }
  }

  async #read(
    url: string,
    what: string,
    query?: Record<string, string>,
    { quiet404 = false, signal }: { quiet404?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ doc: SitemapDocument; url: string }> {
    let response;
    try {
      response = await this.#http.request({
        path: url,
        query,
        headers: { accept: "application/xml, text/xml" },
        idempotent: true,
        signal,
      });
    } catch (error) {
      if (error instanceof NotFoundError && !quiet404) {
        throw new NotFoundError(
          `ResourceSync is not offered for this site: ${error.url} answered 404 for the ${what}`,
          {
            status: 404,
            method: "GET",
            url: error.url,
            body: error.body,
            serverMessage: error.serverMessage,
            hint: NOT_OFFERED_HINT,
          },
        );
      }
      throw error;
    }
    this.#checkAuthority(response.url || url, url);
    const { parseSitemap } = await import("./_sitemap.ts");
    try {
      const doc = await parseSitemap(response.text(), what, response.url || url);
      // Relative locations are resolved against the document that named them.
      const base = response.url || url;
      for (const entry of doc.entries) entry.loc = resolve(entry.loc, base);
      for (const rel in doc.links) doc.links[rel] = resolve(doc.links[rel], base);
      return { doc, url };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      throw new ProtocolError(`Cannot read the ${what} from ${url}: ${(error as Error).message}`, {
        code: "invalidDocument",
        details: response.text().slice(0, 300),
      });
    }
  }
}

function resolve(link: string, base: string): string {
  try {
    return new URL(link, base).href;
  } catch {
    return link;
  }
}

/** What tells one listed entry from another: its location and when and how it changed. */
function entryKey(entry: SitemapEntry): string {
  return [entry.loc, entry.lastmod, entry.datetime, entry.change, entry.hash].join("\u0001");
}
