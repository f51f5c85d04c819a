/**
 * One SPARQL query sent to an endpoint, answered as a table, a boolean or a
 * triples table: the request, the result formats, streaming, the server's
 * row cap and its error codes. `SparqlEndpoint` and the archive's `sparql`
 * both send through here.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { noteAsOf } from "../table/call_trace.ts";
import { redact } from "../errors/redact.ts";
import type { HttpClient, HttpRequest, HttpResponse, HttpStream } from "../http/client.ts";
import { cappedStream, readCapped } from "../http/response.ts";
import { ProtocolError } from "../errors/errors.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import { type ParsedQuery, parseQuery } from "./_parse_query.ts";
import {
  parseJsonResults,
  parseResults,
  parseXmlResults,
  type ResultFormat,
  resultFormat,
} from "./_sparql_results.ts";
import { bindingsTable, type CompanionOptions } from "./_sparql_table.ts";
import { parseRdf, triplesTable } from "./_triples.ts";
import { isFinalAnswer, queryError } from "./_server_error.ts";

export type { CompanionOptions, ResultFormat };

/** Options of one query. */
export interface SparqlQueryOptions extends CompanionOptions, StrictOption {
  /** Ask for one result format instead of negotiating (JSON first, then XML, CSV, TSV). */
  format?: ResultFormat;
  /** `auto` (default): GET, or POST when the URL would pass 2,000 characters. */
  method?: "auto" | "GET" | "POST";
  /** Cancels the query in flight. */
  signal?: AbortSignal;
}

/** What a query answers: a table (SELECT, CONSTRUCT, DESCRIBE) or a boolean (ASK). */
export type SparqlResult = ColumnTable | boolean;

/** Where queries go: the HTTP client, the endpoint's path (or URL) and how a request is sent. */
export interface SparqlTarget {
  /** The client: its cache, size cap and warnings. */
  readonly http: HttpClient;
  /** The endpoint, a path below the client's base URL or an absolute URL. */
  endpoint(): Promise<string>;
  /** Sends a buffered request (the archive adds its key policy). */
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Sends a request whose body is read as it arrives. */
  sendStreamed(request: HttpRequest): Promise<HttpStream>;
}

/** A query's answer with the server's row cap, when it said it applied one. */
export interface Answer {
  result: SparqlResult;
  /** `X-SPARQL-MaxRows`: the answer holds at most this many rows. */
  maxRows?: number;
}

const SELECT_ACCEPT: Record<ResultFormat | "any", string> = {
  any:
    "application/sparql-results+json, application/sparql-results+xml;q=0.9, text/tab-separated-values;q=0.8, text/csv;q=0.7",
  json: "application/sparql-results+json",
  xml: "application/sparql-results+xml",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
};
// N-Triples first: Virtuoso's Turtle writes an xsd:double such as 1000.0 bare,
// which Turtle reads as a decimal. RDF/XML last, for endpoints that offer little else.
const GRAPH_ACCEPT =
  "application/n-triples, text/turtle;q=0.9, application/n-quads;q=0.8, application/ld+json;q=0.7, application/rdf+xml;q=0.5";
const MAX_GET_URL = 2000;

/** The row cap a server says it applied (`X-SPARQL-MaxRows`, Virtuoso). */
function maxRowsOf(headers: Headers): number | undefined {
  const value = Number(headers.get("x-sparql-maxrows") ?? NaN);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Sends a query and reads its answer. `shown` is the query as the caller
 * wrote it, for errors (the text sent may be a page or a COUNT built from it).
 */
export async function sendQuery(
  target: SparqlTarget,
  query: string,
  options: SparqlQueryOptions & { parsed?: ParsedQuery; shown?: string } = {},
): Promise<Answer> {
  const parsed = options.parsed ??
    await parseQuery(query, { warn: (message) => target.http.warn(message) });
  const shown = options.shown ?? query;
  // Well-known prefixes the query uses undeclared go first, so any server reads it.
  query = (parsed.declared ?? "") + query;
  const queryType = parsed.queryType ?? "SELECT";
  const graph = queryType === "CONSTRUCT" || queryType === "DESCRIBE";
  const http = target.http;
  const path = await target.endpoint();
  noteAsOf({ endpoint: redact(http.url(path).toString()) });
  const accept = graph ? GRAPH_ACCEPT : SELECT_ACCEPT[options.format ?? "any"];
  const long = http.url(path, { query }).toString().length > MAX_GET_URL;
  const post = options.method === "POST" || (options.method !== "GET" && long);
  const request: HttpRequest = {
    method: post ? "POST" : "GET",
    path,
    query: post ? undefined : { query },
    body: post ? new URLSearchParams({ query }).toString() : undefined,
    headers: {
      accept,
      ...(post ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    idempotent: true,
    final: isFinalAnswer,
    signal: options.signal,
  };
  try {
    // Without a cache, JSON and XML results are read as they arrive: the whole
    // text is never held, and reading overlaps the transfer. A cache stores the
    // whole answer, so recording and replaying read it whole.
    if (!graph && !http.caching) {
      const streamed = await target.sendStreamed(request);
      const maxRows = maxRowsOf(streamed.headers);
      const type = streamed.headers.get("content-type") ?? "";
      const format = resultFormat(type) ?? options.format;
      if (format === "xml" || format === "json") {
        const url = redact(streamed.url);
        const body = cappedStream(streamed.body, http.maxResponseBytes, request.method!, url);
        const chunks = body.pipeThrough(new TextDecoderStream());
        const result = format === "xml"
          ? await parseXmlResults(chunks, url)
          : await parseJsonResults(chunks);
        return {
          result: typeof result === "boolean" ? result : bindingsTable(result, options),
          maxRows,
        };
      }
      const bytes = await readCapped(
        new Response(streamed.body, { headers: streamed.headers }),
        http.maxResponseBytes,
        request.method!,
        redact(streamed.url),
      );
      return {
        result: await resultsOf(new TextDecoder().decode(bytes), type, options),
        maxRows,
      };
    }
    const response = await target.send(request);
    const contentType = response.headers.get("content-type") ?? "";
    if (graph) {
      const triples = await parseRdf(
        response.text(),
        contentType || "text/turtle",
        response.url,
        { http, strict: options.strict },
      );
      return { result: triplesTable(triples) };
    }
    return {
      result: await resultsOf(response.text(), contentType, options),
      maxRows: maxRowsOf(response.headers),
    };
  } catch (error) {
    throw queryError(error, shown);
  }
}

/**
 * Sends a query as `sparql()` does: a SELECT answer that fills the server's
 * row cap is kept, with a warning that more rows may exist.
 */
export async function runQuery(
  target: SparqlTarget,
  query: string,
  options: SparqlQueryOptions = {},
  call = "sparqlAll()",
): Promise<SparqlResult> {
  const { result, maxRows } = await sendQuery(target, query, options);
  if (typeof result !== "boolean" && maxRows !== undefined && result.numRows() >= maxRows) {
    target.http.warn(
      `The SPARQL endpoint answered ${result.numRows()} rows, its cap (X-SPARQL-MaxRows: ${maxRows}): the query may have more rows than these; read every row with ${call}`,
    );
  }
  return result;
}

/** A SELECT or ASK answer's text, by its content type (or the format asked for). */
async function resultsOf(
  text: string,
  contentType: string,
  options: SparqlQueryOptions,
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
