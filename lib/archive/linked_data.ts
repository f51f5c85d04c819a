/**
 * A resource exported as linked data: schema.org or RiC-O, JSON-LD or Turtle.
 *
 * @module
 */

import type { HttpResponse } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import type { JsonLdDocument } from "./types.ts";
import { dataUri } from "./_data_uri.ts";

/** The export formats: schema.org JSON-LD, RiC-O JSON-LD, and Turtle of either. */
export type LinkedDataFormat = "jsonld" | "rico" | "ttl" | "rico-ttl";

/** The JSON-LD formats. */
export type JsonLdFormat = "jsonld" | "rico";

/** The Turtle formats. */
export type TurtleFormat = "ttl" | "rico-ttl";

const FORMATS: readonly LinkedDataFormat[] = ["jsonld", "rico", "ttl", "rico-ttl"];

/** Fetches the export and hands back the raw answer. */
export async function fetchLinkedData(
  context: ArchiveContext,
  id: string,
  format: LinkedDataFormat,
): Promise<HttpResponse> {
  if (!FORMATS.includes(format)) {
    throw new TidepoolError(`Unknown linked-data format: ${format}`, {
      hint: `Give one of ${FORMATS.join(", ")}`,
    });
  }
  const { account, db } = requireTarget(context, "linkedData");
  const turtle = format === "ttl" || format === "rico-ttl";
  return await send(context, {
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
    query: { format },
    headers: { accept: turtle ? "text/turtle" : "application/ld+json, application/json;q=0.9" },
  });
}

/** The body of {@linkcode Archive.linkedData}, on the archive's shared state; documented there. */
export async function linkedData(
  context: ArchiveContext,
  id: string,
  format: LinkedDataFormat = "jsonld",
): Promise<JsonLdDocument | string> {
  const response = await fetchLinkedData(context, id, format);
  if (format === "ttl" || format === "rico-ttl") return response.text();
  return jsonLdOf(response);
}

/** The body of {@linkcode Archive.entityLinkedData}, on the archive's shared state; documented there. */
export async function entityLinkedData(
  context: ArchiveContext,
  slug: string,
): Promise<JsonLdDocument> {
  const { account } = requireTarget(context, "entityLinkedData", false);
  const response = await send(context, {
    path: `/api/${segment(account)}/entities/${segment(slug)}`,
    query: { format: "jsonld" },
    headers: { accept: "application/ld+json, application/json;q=0.9" },
  });
  return jsonLdOf(response);
}

/** A linked-data answer as a JSON-LD document: resources and entities are read the same way. */
function jsonLdOf(response: HttpResponse): JsonLdDocument {
  const doc = response.json<unknown>();
  if (!doc || typeof doc !== "object") {
    throw new ProtocolError(`Linked-data export is not a JSON-LD document: ${response.url}`, {
      details: response.text(),
    });
  }
  return doc as JsonLdDocument;
}

/** Options of {@linkcode Archive.linkedDataAt}. */
export interface LinkedDataAtOptions {
  /** `jsonld` (default, JSON-LD) or `ttl` (Turtle), asked for with `Accept`. */
  format?: "jsonld" | "ttl";
  /** Cancels the request. */
  signal?: AbortSignal;
}

const DATA_PATH = /^\/[^/]+\/[^/]+\/data\/[^/]+$/;

/** The body of {@linkcode Archive.linkedDataAt}, on the archive's shared state; documented there. */
export async function linkedDataAt(
  context: ArchiveContext,
  target: string,
  options: LinkedDataAtOptions = {},
): Promise<JsonLdDocument | string> {
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(target)
    ? new URL(target)
    : new URL(dataUri(context, target));
  const platform = new URL(context.http.baseUrl);
  // A data URI is followed only within the platform's authority, as any link a server hands back.
  if (uri.origin !== platform.origin || !DATA_PATH.test(uri.pathname)) {
    throw new TidepoolError(`Not a data URI of this platform: ${uri.toString().slice(0, 200)}`, {
      hint:
        `A data URI is ${platform.origin}/{account}/{db}/data/{id}; give one of those, or an id`,
    });
  }
  const turtle = options.format === "ttl";
  const response = await send(context, {
    path: uri.pathname,
    headers: { accept: turtle ? "text/turtle" : "application/ld+json, application/json;q=0.9" },
    signal: options.signal,
  });
  const type = response.headers.get("content-type") ?? "";
  if (/html/i.test(type)) {
    throw new ProtocolError(
      `The data URI answered a web page, not linked data: ${uri.pathname} led to ${response.url}`,
      {
        details: response.text().slice(0, 200),
        hint:
          "The platform took the request for a browser's (303 to the detail page); report it with the URI",
      },
    );
  }
  if (turtle) {
    if (!/turtle/i.test(type)) {
      throw new ProtocolError(`The data URI answered ${type || "no content type"}, not Turtle`, {
        details: response.text().slice(0, 200),
      });
    }
    return response.text();
  }
  return jsonLdOf(response);
}
