/**
 * A sandbox ResourceSync source as a request handler: the well-known
 * source description, one capability list per site, resource lists in
 * pages of 10,000 (`p`) or behind a sitemap index, and change lists with
 * `from`. Deletions are not reported, as on the platform.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { esc } from "../oai/_oai_xml.ts";
import type { OaiSandboxRecord } from "../oai/types.ts";
import { variantOf } from "../../_strictness.ts";

/** A resource's content as its data URI serves it to a program. */
export interface ResourceContent {
  /** The bytes. */
  body: Uint8Array;
  /** The media type. */
  type: string;
}

/** What a list entry says of its content beside its location: `length` and digests. */
export type ResourceMetadata = "length" | "md5" | "sha-256";

/**
 * The content metadata a source lists, by shapes seed: the spec shows none
 * (seed 0, as the sandbox was first written); others list the length and an
 * MD5 (as CORE does), a SHA-256, or both, in hex.
 *
 * @param seed The shapes seed.
 * @returns The attributes each entry carries.
 *
 * @example
 * ```ts
 * console.log(resourceSyncMetadata(0), resourceSyncMetadata(1)); // [] ["length", "md5"]
 * ```
 */
export function resourceSyncMetadata(seed: number): readonly ResourceMetadata[] {
  return variantOf(
    seed,
    [[], ["length", "md5"], ["length", "sha-256"], [
      "length",
      "md5",
      "sha-256",
    ]] as const,
  );
}

/**
 * The JSON-LD a standalone source serves for a record: its data URI, name
 * and Dublin Core elements, the same bytes on every request.
 *
 * @param uri The record's data URI.
 * @param record The record.
 * @returns The content.
 *
 * @example
 * ```ts
 * import { seedOaiRecords } from "../oai/seed_oai_records.ts";
 * const [record] = seedOaiRecords({ count: 1 });
 * console.log(recordContent("http://x/a/b/data/1", record).type); // application/ld+json
 * ```
 */
export function recordContent(uri: string, record: OaiSandboxRecord): ResourceContent {
  const doc = {
    "@context": "https://schema.org/",
    "@id": uri,
    name: record.dc.title?.[0] ?? record.slug,
    dateModified: record.datestamp,
    ...Object.fromEntries(
      Object.entries(record.dc).map(([key, values]) => [`dcterms:${key}`, values]),
    ),
  };
  return { body: new TextEncoder().encode(JSON.stringify(doc)), type: "application/ld+json" };
}

/** Options of {@linkcode createResourceSyncSource}. */
export interface ResourceSyncSourceOptions {
  /** The records of each supported public site (`account/db`), read on every request. */
  sites: () => Record<string, readonly OaiSandboxRecord[]>;
  /** Entries per resource-list page; default 10,000 (the platform's limit). */
  pageSize?: number;
  /** Serve the resource list as a sitemap index of its pages. */
  sitemapIndex?: boolean;
  /**
   * Each record's content, for the `length` and digests the lists carry;
   * default the JSON-LD of {@linkcode recordContent}.
   */
  content?: (uri: string, record: OaiSandboxRecord) => ResourceContent;
  /** The content metadata each entry lists; default none. */
  metadata?: readonly ResourceMetadata[];
  /** Also serve each record's content at its data URI (a standalone source). */
  serveContent?: boolean;
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
  const contentOf = options.content ?? recordContent;
  const metadata = options.metadata ?? [];
  /** The `length` and `hash` attributes of an entry, as the metadata switch says. */
  const describe = (uri: string, record: OaiSandboxRecord): string => {
    if (metadata.length === 0) return "";
    const { body } = contentOf(uri, record);
    const hashes = metadata.filter((m) => m !== "length")
      .map((m) => `${m}:${createHash(m === "md5" ? "md5" : "sha256").update(body).digest("hex")}`);
    return (metadata.includes("length") ? `length="${body.byteLength}" ` : "") +
      (hashes.length ? `hash="${hashes.join(" ")}" ` : "");
  };
  /** A record's content at its data URI, for a standalone source. */
  const serveData = (
    request: Request,
    url: URL,
    sites: Record<string, readonly OaiSandboxRecord[]>,
    [, account, db, id]: RegExpExecArray,
  ): Response => {
    const slug = decodeURIComponent(id);
    const record = sites[`${account}/${db}`]?.find((r) => r.slug === slug && !r.deleted);
    if (!record) return Response.json({ error: `Resource not found: ${slug}` }, { status: 404 });
    const { body, type } = contentOf(`${url.origin}${url.pathname}`, record);
    return new Response(request.method === "HEAD" ? null : body as BodyInit, {
      headers: { "content-type": type, "content-length": String(body.byteLength) },
    });
  };
  const xml = (body: string) =>
    new Response(XML_HEAD + body, { headers: { "content-type": "application/xml" } });
  return (request) => {
    const url = new URL(request.url);
    // Behind a proxy that says so, links name the host the client asked.
    const forwarded = request.headers.get("x-forwarded-host");
    if (forwarded) {
      url.host = forwarded;
      url.protocol = request.headers.get("x-forwarded-proto") ?? url.protocol;
    }
    const sites = options.sites();
    if (url.pathname === "/.well-known/resourcesync") {
      const entries = Object.keys(sites).map((site) =>
        `<url><loc>${url.origin}/${site}/api/resourcesync/capabilitylist.xml</loc><rs:md capability="capabilitylist"/></url>`
      ).join("");
      return xml(`<urlset ${NS}><rs:md capability="description"/>${entries}</urlset>`);
    }
    const data = /^\/([^/]+)\/([^/]+)\/data\/([^/]+)$/.exec(url.pathname);
    if (data && options.serveContent) return serveData(request, url, sites, data);
    const match = /^\/([^/]+)\/([^/]+)\/api\/resourcesync\/([a-z]+\.xml)$/.exec(url.pathname);
    if (!match) return undefined;
    const site = `${match[1]}/${match[2]}`;
    const records = sites[site];
    if (!records) return Response.json({ error: "Not found" }, { status: 404 });
    const base = `${url.origin}/${site}/api/resourcesync`;
    const live = records.filter((r) => !r.deleted);
    const uriOf = (r: OaiSandboxRecord) =>
      `${url.origin}/${site}/data/${encodeURIComponent(r.slug)}`;
    const entry = (r: OaiSandboxRecord, change?: string) =>
      `<url><loc>${esc(uriOf(r))}</loc><lastmod>${r.datestamp}</lastmod>` +
      `<rs:md ${change ? `change="${change}" datetime="${r.datestamp}" ` : ""}${
        describe(uriOf(r), r)
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
