/**
 * A SPARQL query against a site's endpoint, answered as a table, a boolean
 * or a triples table.
 *
 * @module
 */

import { noteAsOf } from "../table/call_trace.ts";
import { redact } from "../errors/redact.ts";
import type { ColumnTable } from "arquero";
import type { HttpStream } from "../http/client.ts";
import { cappedStream, readCapped } from "../http/response.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import {
  type ArchiveContext,
  type ArchiveRequest,
  requireTarget,
  segment,
  send,
  sendStreamed,
} from "./_context.ts";
import { parseQuery } from "../sparql/_parse_query.ts";
import {
  parseJsonResults,
  parseResults,
  parseXmlResults,
  type ResultFormat,
  resultFormat,
} from "../sparql/_sparql_results.ts";
import { bindingsTable, type CompanionOptions } from "../sparql/_sparql_table.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import { parseRdf, triplesTable } from "../sparql/_triples.ts";
import { databases } from "./databases.ts";
import { unknownDatabase } from "./_database_typo.ts";

export type { CompanionOptions, ResultFormat };

/** Options of {@linkcode sparql}. */
export interface SparqlOptions extends CompanionOptions, StrictOption {
  /** Ask for one result format instead of negotiating (JSON first, then XML, CSV, TSV). */
  format?: ResultFormat;
  /** `auto` (default): GET, or POST when the URL would pass 2,000 characters. */
  method?: "auto" | "GET" | "POST";
  /** Another database of the account (default: the Archive's `db`). */
  db?: string;
  /** The database's service (`dl`, `text`, `records`); default: read from the catalogue. */
  service?: string;
  /** Cancels the query in flight. */
  signal?: AbortSignal;
}

/** What a query answers: a table (SELECT, CONSTRUCT, DESCRIBE) or a boolean (ASK). */
export type SparqlResult = ColumnTable | boolean;

const SELECT_ACCEPT: Record<ResultFormat | "any", string> = {
  any:
    "application/sparql-results+json, application/sparql-results+xml;q=0.9, text/tab-separated-values;q=0.8, text/csv;q=0.7",
  json: "application/sparql-results+json",
  xml: "application/sparql-results+xml",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
};
const GRAPH_ACCEPT =
  "text/turtle, application/n-triples;q=0.9, application/n-quads;q=0.8, application/ld+json;q=0.7";
const MAX_GET_URL = 2000;

/** The body of {@linkcode Archive.sparql}, on the archive's shared state; documented there. */
export async function runSparql(
  context: ArchiveContext,
  query: string,
  options: SparqlOptions = {},
): Promise<SparqlResult> {
  const parsed = await parseQuery(query);
  const queryType = parsed.queryType ?? "SELECT";
  const graph = queryType === "CONSTRUCT" || queryType === "DESCRIBE";
  const path = `${await endpointBase(context, options)}/sparql`;
  noteAsOf({ endpoint: redact(context.http.url(path).toString()) });
  const accept = graph ? GRAPH_ACCEPT : SELECT_ACCEPT[options.format ?? "any"];
  const long = context.http.url(path, { query }).toString().length > MAX_GET_URL;
  const post = options.method === "POST" || (options.method !== "GET" && long);
  const request: ArchiveRequest = {
    method: post ? "POST" : "GET",
    path,
    query: post ? undefined : { query },
    body: post ? new URLSearchParams({ query }).toString() : undefined,
    headers: {
      accept,
      ...(post ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    idempotent: true,
    tail: "/sparql",
    signal: options.signal,
  };
  // Without a cache, JSON and XML results are read as they arrive: the whole
  // text is never held, and reading overlaps the transfer. A cache stores the
  // whole answer, so recording and replaying read it whole.
  if (!graph && !context.http.caching) {
    const streamed = await sendStreamed(context, request);
    const type = streamed.headers.get("content-type") ?? "";
    const format = resultFormat(type) ?? options.format;
    if (format === "xml" || format === "json") {
      const url = redact(streamed.url);
      const body = cappedStream(streamed.body, context.http.maxResponseBytes, request.method!, url);
      const chunks = body.pipeThrough(new TextDecoderStream());
      const result = format === "xml"
        ? await parseXmlResults(chunks, url)
        : await parseJsonResults(chunks);
      return typeof result === "boolean" ? result : bindingsTable(result, options);
    }
    return await readWhole(context, streamed, request.method!, type, options);
  }
  const response = await send(context, request);
  const contentType = response.headers.get("content-type") ?? "";
  if (graph) {
    const text = response.text();
    const triples = await parseRdf(text, contentType || "text/turtle", response.url, {
      http: context.http,
      strict: options.strict,
    });
    return triplesTable(triples);
  }
  return await resultsOf(response.text(), contentType, options);
}

/** A SELECT or ASK answer's text, by its content type (or the format asked for). */
async function resultsOf(
  text: string,
  contentType: string,
  options: SparqlOptions,
): Promise<SparqlResult> {
  const format = resultFormat(contentType) ?? options.format;
  if (!format) {
    throw new ProtocolError(`SPARQL endpoint answered an unreadable type: ${contentType}`, {
      details: text,
      hint: 'Ask for a format with { format: "json" }',
    });
  }
  const result = await parseResults(text, format);
  if (typeof result === "boolean") return result;
  return bindingsTable(result, options);
}

/** A streamed answer in CSV or TSV (or of no known type), read whole within the size cap. */
async function readWhole(
  context: ArchiveContext,
  streamed: HttpStream,
  method: string,
  contentType: string,
  options: SparqlOptions,
): Promise<SparqlResult> {
  const bytes = await readCapped(
    new Response(streamed.body, { headers: streamed.headers }),
    context.http.maxResponseBytes,
    method,
    redact(streamed.url),
  );
  return await resultsOf(new TextDecoder().decode(bytes), contentType, options);
}

/** `/api/{account}/{service}/{db}`, the service read from the catalogue once. */
export async function endpointBase(
  context: ArchiveContext,
  options: Pick<SparqlOptions, "db" | "service">,
): Promise<string> {
  const { account } = requireTarget(context, "sparql");
  const db = options.db ?? context.db!;
  const key = `${account}/${db}`;
  let service = options.service ?? context.services.get(key);
  if (!service) {
    await databases(context, {});
    service = context.services.get(key);
  }
  // In replay the private listing recorded with a key serves a replay without one.
  if (!service && (context.apiKey || context.http.replaying)) {
    await databases(context, { scope: "mine" });
    service = context.services.get(key);
  }
  if (!service) {
    const unknown = await unknownDatabase(context, account, db);
    if (unknown) throw unknown;
    throw new TidepoolError(`Cannot find the serving app of the database ${key}`, {
      hint:
        'The accounts catalogue lists no service for it: pass { service: "dl" } (or text, records) to sparql()',
    });
  }
  return `/api/${segment(account)}/${segment(service)}/${segment(db)}`;
}
