/**
 * A standalone ResourceSync sandbox on loopback.
 *
 * @module
 */

import { type LocalServer, serveLocal } from "../../_serve.ts";
import { seedOaiRecords } from "../oai/seed_oai_records.ts";
import type { OaiSandboxRecord } from "../oai/types.ts";
import { createResourceSyncSource } from "./resourcesync_source.ts";

/** Options of {@linkcode startResourceSyncSandbox}. */
export interface StartResourceSyncSandboxOptions {
  /** Records by supported site; default `acme/letters` with 250 seeded records. */
  sites?: Record<string, OaiSandboxRecord[]>;
  /** Entries per resource-list page; default 10,000. */
  pageSize?: number;
  /** Serve resource lists as sitemap indexes of their pages. */
  sitemapIndex?: boolean;
}

/** A running ResourceSync sandbox. */
export interface ResourceSyncSandbox extends LocalServer {
  /** The records of each site; tests may change them. */
  sites: Record<string, OaiSandboxRecord[]>;
}

/**
 * Starts the sandbox. Every site not listed (such as `acme/search`, a site
 * without modification timestamps) answers 404.
 *
 * @param options Sites, page size and the sitemap-index switch.
 * @returns The running sandbox; close it when done.
 *
 * @example Starting and stopping
 * ```ts
 * const sandbox = startResourceSyncSandbox();
 * try {
 *   const response = await fetch(`${sandbox.url}/.well-known/resourcesync`);
 *   console.log(response.status, (await response.text()).includes("capabilitylist"));
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export function startResourceSyncSandbox(
  options: StartResourceSyncSandboxOptions = {},
): ResourceSyncSandbox {
  const sites = options.sites ?? { "acme/letters": seedOaiRecords() };
  const source = createResourceSyncSource({
    sites: () => sites,
    pageSize: options.pageSize,
    sitemapIndex: options.sitemapIndex,
  });
  const server = serveLocal((request) =>
    source(request) ?? Response.json({ error: "Not found" }, { status: 404 })
  );
  return Object.assign(server, { sites });
}
