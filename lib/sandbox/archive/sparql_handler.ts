/**
 * GET or POST /api/{account}/{service}/{db}/sparql: a read-only SPARQL
 * endpoint over the oxigraph store, for public sites with `rdf`. The
 * default graph is the site's graph; `GRAPH ?g` reaches the other public
 * sites. Results by `Accept`: JSON, XML, CSV, TSV; graphs as Turtle,
 * N-Triples or RDF/XML. An old service path after a switch answers 307.
 *
 * @module
 */

import sparqljs from "sparqljs";
import { type ArchiveState, type DatabaseIndex, errorResponse } from "./_state.ts";

const SELECT_TYPES = [
  "application/sparql-results+json",
  "application/sparql-results+xml",
  "text/csv",
  "text/tab-separated-values",
];
// RDF/XML too, as Virtuoso and others serve it: SPARQLWrapper asks for it first.
const GRAPH_TYPES = ["text/turtle", "application/n-triples", "application/rdf+xml"];

/** Picks the first type of `offered` that the Accept header allows, by q value. */
function negotiate(accept: string, offered: string[]): string | undefined {
  const ranges = accept.split(",").map((part) => {
    const [range, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return { range: range.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
  }).filter((r) => r.range && r.q > 0);
  if (ranges.length === 0) return offered[0];
  let best: { type: string; q: number } | undefined;
  for (const { range, q } of ranges) {
    const type = range === "*/*"
      ? offered[0]
      : range === "application/json"
      ? offered.find((t) => t.endsWith("json"))
      : offered.find((t) => t === range);
    if (type && (!best || q > best.q)) best = { type, q };
  }
  return best?.type;
}

/** Answers a SPARQL request. */
export async function sparqlHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  service: string,
  request: Request,
  url: URL,
): Promise<Response> {
  if (service !== index.db.settings.service) {
    if (index.formerServices.has(service)) {
      const moved = new URL(url);
      moved.pathname = url.pathname.replace(
        `/${service}/${index.db.slug}/`,
        `/${index.db.settings.service}/${index.db.slug}/`,
      );
      return new Response(null, { status: 307, headers: { location: moved.toString() } });
    }
    return errorResponse(404, `No database ${index.db.slug} under service ${service}`);
  }
  if (!index.db.settings.rdf || !index.db.is_public) {
    return errorResponse(404, `SPARQL is not enabled for ${index.db.account}/${index.db.slug}`);
  }
  let query = url.searchParams.get("query");
  if (request.method === "POST") {
    const type = request.headers.get("content-type") ?? "";
    const body = await request.text();
    query = type.includes("application/sparql-query")
      ? body
      : new URLSearchParams(body).get("query");
  }
  if (!query) return errorResponse(400, "Missing query");
  let text = query;
  let queryType: string;
  const headers: Record<string, string> = {};
  try {
    const parsed = new sparqljs.Parser().parse(query);
    if (parsed.type === "update") return errorResponse(400, "The endpoint is read-only");
    queryType = parsed.queryType;
    const select = parsed.queryType === "SELECT" ? parsed : undefined;
    // Virtuoso sorts for TOP (OFFSET + LIMIT) rows and refuses more than MaxSortedTopRows.
    const sortBound = state.faults.sparqlMaxSortedTopRows ?? 10_000;
    const top = (select?.offset ?? 0) + (select?.limit ?? 0);
    if (select?.order?.length && select.limit !== undefined && top > sortBound) {
      return virtuosoError(
        500,
        "22023",
        `SR353: Sorted TOP clause specifies more then ${top} rows to sort. Only ${sortBound} are allowed. Either decrease the offset and/or row count or use a scrollable cursor`,
      );
    }
    const cap = state.faults.sparqlRowCap;
    if (cap !== undefined && select && (select.limit ?? Infinity) >= cap) {
      select.limit = cap;
      text = new sparqljs.Generator().stringify(parsed);
      headers["x-sparql-maxrows"] = String(cap);
    }
  } catch (error) {
    // A compile error: 400, as Virtuoso answers its SP030.
    return errorResponse(400, `Query parse error: ${(error as Error).message}`);
  }
  const graph = queryType === "CONSTRUCT" || queryType === "DESCRIBE";
  const accept = request.headers.get("accept") ?? "*/*";
  const format = negotiate(accept, graph ? GRAPH_TYPES : SELECT_TYPES);
  if (!format) return errorResponse(406, `Cannot answer ${queryType} as ${accept}`);
  try {
    const body = state.sparql!(text, format, index.db);
    return new Response(String(body), {
      headers: { "content-type": `${format}; charset=utf-8`, ...headers },
    });
  } catch (error) {
    // A failure while the query runs: 500, as Virtuoso answers its runtime errors.
    return errorResponse(500, `Query failed: ${(error as Error).message}`);
  }
}

/** An error as Virtuoso words it: `Virtuoso <SQLSTATE> Error <code>: <text>`, plain text. */
function virtuosoError(status: number, sqlState: string, text: string): Response {
  return new Response(`Virtuoso ${sqlState} Error ${text}\n`, {
    status,
    headers: { "content-type": "text/plain" },
  });
}
