/**
 * ResourceSync documents (sitemaps with `rs:md` and `rs:ln`) into entries.
 *
 * @module
 */

import { attribute, child, children, parseXml, textOf } from "../../xml/xml.ts";

/** One `url` or `sitemap` entry. */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  change: string | null;
  datetime: string | null;
  html: string | null;
  length: number | null;
  type: string | null;
  hash: string | null;
  capability: string | null;
  from: string | null;
  until: string | null;
}

/** A parsed ResourceSync document. */
export interface SitemapDocument {
  /** `urlset` or `sitemapindex`. */
  kind: "urlset" | "sitemapindex";
  /** The document's capability (`resourcelist`, `changelist`, `capabilitylist`, `description`). */
  capability: string | null;
  /** The document's `at` or `from` time. */
  at: string | null;
  /** Document-level links by relation (`up`, `index`, `next`). */
  links: Record<string, string>;
  /** The entries. */
  entries: SitemapEntry[];
}

/** Parses a ResourceSync document; `what` names it in errors. */
export async function parseSitemap(
  text: string,
  what: string,
  source: string,
): Promise<SitemapDocument> {
  const root = await parseXml(text, what, source);
  const urlset = child(root, "urlset");
  const index = child(root, "sitemapindex");
  const top = urlset ?? index;
  if (!top || typeof top !== "object") {
    throw new Error(`no urlset or sitemapindex element`);
  }
  const md = child(top, "md");
  const links: Record<string, string> = {};
  for (const ln of children(top, "ln")) {
    const rel = attribute(ln, "rel");
    const href = attribute(ln, "href");
    if (rel && href) links[rel] ??= href;
  }
  const items = children(top, urlset ? "url" : "sitemap");
  return {
    kind: urlset ? "urlset" : "sitemapindex",
    capability: attribute(md, "capability") ?? null,
    at: attribute(md, "at") ?? attribute(md, "from") ?? null,
    links,
    entries: items.map(readEntry).filter((e): e is SitemapEntry => e !== undefined),
  };
}

function readEntry(item: unknown): SitemapEntry | undefined {
  const loc = textOf(child(item, "loc"))?.trim();
  if (!loc) return undefined;
  const md = child(item, "md");
  const alternates = children(item, "ln").filter((ln) => attribute(ln, "rel") === "alternate");
  const html = alternates.find((ln) => (attribute(ln, "type") ?? "").includes("html")) ??
    alternates[0];
  const length = attribute(md, "length") ?? textOf(child(item, "size"));
  return {
    loc,
    lastmod: textOf(child(item, "lastmod"))?.trim() || null,
    change: attribute(md, "change") ?? null,
    datetime: attribute(md, "datetime") ?? null,
    html: attribute(html, "href") ?? null,
    length: length === undefined || length.trim() === "" ? null : Number(length),
    type: attribute(md, "type") ?? null,
    hash: attribute(md, "hash")?.replace(/\s+/g, " ").trim() ?? null,
    capability: attribute(md, "capability") ?? null,
    from: attribute(md, "from") ?? null,
    until: attribute(md, "until") ?? null,
  };
}
