/**
 * A standalone ResourceSync sandbox on loopback.
 *
 * @module
 */

import { type LocalServer, serveLocal } from "../../_serve.ts";
import { seedOaiRecords } from "../oai/seed_oai_records.ts";
import type { OaiSandboxRecord } from "../oai/types.ts";
import { shapesSeed } from "../../_strictness.ts";
import {
  createResourceSyncSource,
  type ResourceMetadata,
  resourceSyncMetadata,
} from "./resourcesync_source.ts";

/** Options of {@linkcode startResourceSyncSandbox}. */
export interface StartResourceSyncSandboxOptions {
  /** Records by supported site; default `acme/letters` with 250 seeded records. */
  sites?: Record<string, OaiSandboxRecord[]>;
  /** Entries per resource-list page; default 10,000. */
  pageSize?: number;
  /** Serve resource lists as sitemap indexes of their pages. */
  sitemapIndex?: boolean;
  /**
   * The shapes seed: which content metadata (`length`, `md5`, `sha-256`) the
   * lists carry, which the spec does not show; default the
   * `TIDEPOOL_SANDBOX_SEED` variable, else 0 (none).
   */
  shapesSeed?: number;
  /** The content metadata the lists carry, whatever the seed. */
  metadata?: readonly ResourceMetadata[];
}

/** A running ResourceSync sandbox. */
export interface ResourceSyncSandbox extends LocalServer {
  /** The records of each site; tests may change them. */
  sites: Record<string, OaiSandboxRecord[]>;
}

/**
 * Starts the sandbox. Every site not listed (such as `acme/search`, a site
 * without modification timestamps) answers 404. Each resource's content (a
 * small JSON-LD document) is served at its data URI, the `loc` of its entry.
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
    metadata: options.metadata ?? resourceSyncMetadata(shapesSeed(options.shapesSeed)),
    serveContent: true,
  });
  const server = serveLocal((request) =>
    source(request) ?? Response.json({ error: "Not found" }, { status: 404 })
  );
  return Object.assign(server, { sites });
}
