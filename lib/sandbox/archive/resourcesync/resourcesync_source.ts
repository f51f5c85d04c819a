/**
 * A sandbox ResourceSync source as a request handler: the well-known
 * source description, one capability list per site, resource lists in
 * pages of 10,000 (`p`) or behind a sitemap index, and change lists with
 * `from`. Deletions are not reported, as on the platform.
 *
 * @module
 */

import { esc } from "../oai/_oai_xml.ts";
import type { OaiSandboxRecord } from "../oai/types.ts";

/** Options of {@linkcode createResourceSyncSource}. */
export interface ResourceSyncSourceOptions {
  /** The records of each supported public site (`account/db`), read on every request. */
  sites: () => Record<string, readonly OaiSandboxRecord[]>;
  /** Entries per resource-list page; default 10,000 (the platform's limit). */
  pageSize?: number;
  /** Serve the resource list as a sitemap index of its pages. */
  sitemapIndex?: boolean;
}

/** A ResourceSync source handler; it answers undefined for paths it does not serve. */
export type ResourceSyncSource = (request: Request) => Response | undefined;

const NS =
  'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * Makes the handler. Sites not in `sites()` answer 404 (private sites, and
 * sites without modification timestamps).
 *
 * @param options The sites, the page size and the index switch.
 * @returns The handler.
 *
 * @example The source description
 * ```ts
 * import { seedOaiRecords } from "../oai/seed_oai_records.ts";
 * const records = seedOaiRecords({ count: 3 });
 * const source = createResourceSyncSource({ sites: () => ({ "acme/letters": records }) });
 * const response = source(new Request("http://x.example/.well-known/resourcesync"));
 * console.log(response?.status);
 * ```
 */
export function createResourceSyncSource(options: ResourceSyncSourceOptions): ResourceSyncSource {
  const pageSize = options.pageSize ?? 10_000;
  const xml = (body: string) =>
    new Response(XML_HEAD + body, { headers: { "content-type": "application/xml" } });
  return (request) => {
    const url = new URL(request.url);
    const sites = options.sites();
    if (url.pathname === "/.well-known/resourcesync") {
      const entries = Object.keys(sites).map((site) =>
        `<url><loc>${url.origin}/${site}/api/resourcesync/capabilitylist.xml</loc><rs:md capability="capabilitylist"/></url>`
      ).join("");
      return xml(`<urlset ${NS}><rs:md capability="description"/>${entries}</urlset>`);
    }
    const match = /^\/([^/]+)\/([^/]+)\/api\/resourcesync\/([a-z]+\.xml)$/.exec(url.pathname);
    if (!match) return undefined;
    const site = `${match[1]}/${match[2]}`;
    const records = sites[site];
    if (!records) return Response.json({ error: "Not found" }, { status: 404 });
    const base = `${url.origin}/${site}/api/resourcesync`;
    const live = records.filter((r) => !r.deleted);
    const entry = (r: OaiSandboxRecord, change?: string) =>
      `<url><loc>${url.origin}/${site}/data/${esc(r.slug)}</loc><lastmod>${r.datestamp}</lastmod>` +
      `<rs:md ${
        change ? `change="${change}" datetime="${r.datestamp}" ` : ""
      }type="application/ld+json"/>` +
      `<rs:ln rel="alternate" href="${url.origin}/${site}/resource/${
        esc(r.slug)
      }" type="text/html"/></url>`;
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    switch (match[3]) {
      case "capabilitylist.xml":
        return xml(
          `<urlset ${NS}><rs:ln rel="up" href="${url.origin}/.well-known/resourcesync"/><rs:md capability="capabilitylist"/>` +
            `<url><loc>${base}/resourcelist.xml</loc><rs:md capability="resourcelist"/></url>` +
            `<url><loc>${base}/changelist.xml</loc><rs:md capability="changelist"/></url></urlset>`,
        );
      case "resourcelist.xml": {
        const pages = Math.max(1, Math.ceil(live.length / pageSize));
        const p = url.searchParams.get("p");
        if (p === null && options.sitemapIndex) {
          const maps = Array.from(
            { length: pages },
            (_, i) => `<sitemap><loc>${base}/resourcelist.xml?p=${i + 1}</loc></sitemap>`,
          ).join("");
          return xml(
            `<sitemapindex ${NS}><rs:md capability="resourcelist" at="${now}"/>${maps}</sitemapindex>`,
          );
        }
        const page = Number(p ?? "1");
        if (!Number.isInteger(page) || page < 1) {
          return Response.json({ error: "p must be a positive integer" }, { status: 400 });
        }
        const slice = live.slice((page - 1) * pageSize, page * pageSize);
        return xml(
          `<urlset ${NS}><rs:md capability="resourcelist" at="${now}"/>${
            slice.map((r) => entry(r)).join("")
          }</urlset>`,
        );
      }
      case "changelist.xml": {
        const from = url.searchParams.get("from");
        if (from !== null && Number.isNaN(Date.parse(from))) {
          return Response.json({ error: "from must be an ISO 8601 timestamp" }, { status: 400 });
        }
        const since = from === null ? -Infinity : Date.parse(from);
        const changed = live
          .filter((r) => Date.parse(r.datestamp) >= since)
          .sort((a, b) => (a.datestamp < b.datestamp ? -1 : 1));
        const attr = from === null ? "" : ` from="${esc(from)}"`;
        return xml(
          `<urlset ${NS}><rs:md capability="changelist"${attr}/>${
            changed.map((r) =>
              entry(r, (r.created ?? r.datestamp) === r.datestamp ? "created" : "updated")
            )
              .join("")
          }</urlset>`,
        );
      }
      default:
        return Response.json({ error: "Not found" }, { status: 404 });
    }
  };
}
