/**
 * The column schema of resource lists and change lists, declared once.
 *
 * @module
 */

import { defineSchema } from "../../table/schema.ts";
import { parseUtc } from "../oai/_dates.ts";
import type { SitemapEntry } from "./_sitemap.ts";

/** Columns of resourceList(), changeList() and mirror(). */
export const entrySchema = defineSchema<SitemapEntry>([
  { name: "loc", type: "string", description: "Linked-data URI of the resource" },
  {
    name: "lastmod",
    type: "date",
    get: (e) => parseUtc(e.lastmod ?? undefined),
    description: "Last modification (UTC; a time without a zone is read as UTC)",
  },
  {
    name: "change",
    type: "string",
    description:
      "created or updated in change lists (deletions are not reported); null in resource lists",
  },
  {
    name: "html",
    type: "string",
    description: "The human page: the alternate link (HTML preferred)",
  },
  { name: "length", type: "number", description: "Size in bytes, when given" },
  { name: "type", type: "string", description: "Media type, when given" },
  { name: "hash", type: "string", description: "Digests as given (`md5:... sha-256:...`)" },
  {
    name: "datetime",
    type: "date",
    get: (e) => parseUtc(e.datetime ?? undefined),
    description: "When the change happened (change lists)",
  },
]);
