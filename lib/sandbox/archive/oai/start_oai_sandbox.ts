/**
 * A standalone OAI-PMH sandbox on loopback: seeded public sites, a private
 * site that answers 404, and optionally a large site of 100,000 records
 * for the benchmark.
 *
 * @module
 */

import { type LocalServer, serveLocal } from "../../_serve.ts";
import { createOaiProvider, type OaiProvider } from "./oai_provider.ts";
import { seedOaiRecords } from "./seed_oai_records.ts";
import type { OaiFaults, OaiRepositoryInfo, OaiSandboxRecord } from "./types.ts";

/** One site of the sandbox. */
export interface OaiSandboxSite {
  /** Records; default 250 seeded records. */
  records?: OaiSandboxRecord[];
  /** A private site answers 404 on every path. */
  private?: boolean;
  /** Identify fields that differ from the defaults. */
  repository?: Partial<OaiRepositoryInfo>;
  /** Records per list page; default the sandbox's. */
  pageSize?: number;
  /** Fault switches from the start. */
  faults?: OaiFaults;
}

/** Options of {@linkcode startOaiSandbox}. */
export interface StartOaiSandboxOptions {
  /** Sites by `account/db`; default `acme/letters` (250 records) and the private `acme/private`. */
  sites?: Record<string, OaiSandboxSite>;
  /** Records per list page; default 100. */
  pageSize?: number;
  /** Also serve `acme/large` with 100,000 records (pages of 500 unless pageSize is given). */
  large?: boolean;
  /**
   * A key every request must carry as `?api-key=`, as some repositories
   * require of harvesters; a request without it (or with another) answers
   * 401. The provider sees the request without it.
   */
  apiKey?: string;
}

/** A running OAI-PMH sandbox. */
export interface OaiSandbox extends LocalServer {
  /** The provider of each public site, with its live fault switches. */
  providers: Record<string, OaiProvider>;
  /** The records of each site; tests may change them between harvests. */
  records: Record<string, OaiSandboxRecord[]>;
}

/**
 * Starts the sandbox on 127.0.0.1 with an ephemeral port. Close it when done.
 *
 * @param options Sites, page size and the large site.
 * @returns The running sandbox.
 *
 * @example Starting and stopping
 * ```ts
 * const sandbox = startOaiSandbox();
 * try {
 *   const response = await fetch(`${sandbox.url}/acme/letters/api/oai?verb=Identify`);
 *   console.log(response.status, (await response.text()).length > 0);
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export function startOaiSandbox(options: StartOaiSandboxOptions = {}): OaiSandbox {
  const sites: Record<string, OaiSandboxSite> = options.sites ?? {
    "acme/letters": {},
    "acme/private": { private: true },
  };
  if (options.large) {
    sites["acme/large"] ??= {
      records: seedOaiRecords({ count: 100_000, seed: 11, site: "acme/large" }),
      pageSize: options.pageSize ?? 500,
    };
  }
  const providers: Record<string, OaiProvider> = {};
  const records: Record<string, OaiSandboxRecord[]> = {};
  for (const [path, site] of Object.entries(sites)) {
    if (site.private) continue;
    const list = site.records ?? seedOaiRecords({ site: path });
    records[path] = list;
    providers[path] = createOaiProvider({
      repository: {
        repositoryName: `${path} (sandbox)`,
        adminEmail: ["admin@archive.example"],
        setNames: { item: "Items", map: "Maps", letter: "Letters", photograph: "Photographs" },
        ...site.repository,
      },
      records: () => records[path],
      pageSize: site.pageSize ?? options.pageSize ?? 100,
      faults: site.faults,
    });
  }
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    const match = /^\/([^/]+)\/([^/]+)\/api\/oai$/.exec(url.pathname);
    const provider = match ? providers[`${match[1]}/${match[2]}`] : undefined;
    if (!provider) return Response.json({ error: "Not found" }, { status: 404 });
    if (options.apiKey !== undefined) {
      if (url.searchParams.get("api-key") !== options.apiKey) {
        return Response.json({ error: "A valid api-key is required" }, { status: 401 });
      }
      url.searchParams.delete("api-key");
      return provider.handle(new Request(url, request));
    }
    return provider.handle(request);
  });
  return Object.assign(server, { providers, records });
}
