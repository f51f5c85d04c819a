/**
 * A local expression search service that follows
 * `specs/expression-search.md`, with seeded, deterministic data: thirty real
 * public-domain Japanese works (made-up pids) and about 20,000 expressions.
 *
 * Choices where the spec shows nothing: the largest `limit` is
 * {@linkcode MAX_LIMIT} (100) on both list endpoints, and a larger one answers
 * 400 `{"error": "limit must be between 0 and 100"}`; bad `sort`, `order`,
 * `offset` also answer 400 with an `{error}` body; an unknown id answers
 * 404. In strict mode (the default) a parameter the spec does not list for
 * an endpoint (an `intensity` filter, say) answers 400
 * `{"error": "Unknown parameter: ..."}`; lenient mode ignores it. A shapes
 * seed other than 0 adds fields the spec does not list to every expression
 * and book.
 *
 * @module
 */

import { extendServer, type LocalServer, serveLocal } from "../_serve.ts";
import { extraFields, type SandboxMode, shapesSeed } from "../_strictness.ts";
import { analyticsBody, booksBody, statsBody } from "./_aggregates.ts";
import {
  MAX_LIMIT,
  pagingNumber,
  QueryError,
  type QueryResult,
  runQuery,
  wireExpression,
} from "./_query.ts";
import { DEFAULT_SEED, seedExpressions, type StoredExpression } from "./_seed.ts";
import { SANDBOX_WORKS, type SandboxWork } from "./_works.ts";

export { MAX_LIMIT };

/** The rate-limit fault: answer 429 past a number of requests per window. */
export interface RateLimitFault {
  /** Requests allowed per window. */
  requests: number;
  /** The window, in milliseconds. Default 1,000. */
  windowMs?: number;
  /** Send `Retry-After: 1` with the 429. Default true. */
  retryAfterHeader?: boolean;
}

/** Options of {@linkcode startExpressionSandbox}. */
export interface ExpressionSandboxOptions {
  /** How many expressions to generate. Default 20,000. */
  size?: number;
  /** The seed of the data. Default fixed. */
  seed?: number;
  /** Enforce a rate limit with 429 `Rate limit exceeded. Try again in 1 seconds.` */
  rateLimit?: RateLimitFault;
  /** Most requests answered before the server answers 503 to everything. */
  maxRequests?: number;
  /** The port to listen on when free, else an ephemeral one (see `serveLocal`). Default 0. */
  port?: number;
  /** `strict` (default): unlisted parameters answer 400; `lenient` (demos) ignores them. */
  mode?: SandboxMode;
  /** Picks the "not shown" shapes (extra fields); default from `TIDEPOOL_SANDBOX_SEED`, else 0. */
  shapesSeed?: number;
}

/** One request the sandbox received. */
export interface SandboxRequestRecord {
  /** Path and query. */
  path: string;
  /** Arrival, from `performance.now()`. */
  at: number;
  /** The status answered. */
  status: number;
}

/** A running expression sandbox. */
export interface ExpressionSandbox extends LocalServer {
  /** The stored expressions (with the index-only `gender` and `position`). */
  readonly expressions: readonly StoredExpression[];
  /** The works; their pids are made up. */
  readonly works: readonly SandboxWork[];
  /** Every request received, in order. */
  readonly requests: readonly SandboxRequestRecord[];
  /** The largest `limit` accepted. */
  readonly maxLimit: number;
}

type Handler = (url: URL) => Response;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Starts the expression sandbox on 127.0.0.1 with an ephemeral port.
 *
 * @param options Data size, seed, the rate-limit fault.
 * @returns The running server; close it when done.
 *
 * @example Starting and stopping the sandbox
 * ```ts
 * const sandbox = startExpressionSandbox({ size: 500 });
 * try {
 *   const answer = await fetch(`${sandbox.url}/api/stats`);
 *   console.log((await answer.json()).total.value); // 500
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export function startExpressionSandbox(options: ExpressionSandboxOptions = {}): ExpressionSandbox {
  const works = SANDBOX_WORKS;
  const records = seedExpressions(options.size ?? 20_000, options.seed ?? DEFAULT_SEED);
  const byId = new Map(records.map((record) => [record.id, record]));
  const byWork = new Map<string, StoredExpression[]>();
  for (const record of records) {
    let list = byWork.get(record.pid);
    if (!list) byWork.set(record.pid, list = []);
    list.push(record);
  }
  for (const list of byWork.values()) list.sort((a, b) => a.position - b.position);
  const extra = extraFields(shapesSeed(options.shapesSeed));
  const strict = (options.mode ?? "strict") === "strict";
  const wire = (record: StoredExpression) => ({ ...wireExpression(record), ...extra });
  const books = booksBody(works, records).map((book) => ({ ...book as object, ...extra }));
  const stats = statsBody(records);
  const analytics = analyticsBody(works, records);
  const queries = new Map<string, QueryResult>();

  const searchExpressions: Handler = (url) => {
    const limit = pagingNumber(url.searchParams, "limit", 20, MAX_LIMIT);
    const offset = pagingNumber(url.searchParams, "offset", 0);
    const params = new URLSearchParams(url.searchParams);
    params.delete("limit");
    params.delete("offset");
    params.sort();
    const key = params.toString();
    let result = queries.get(key);
    if (!result) {
      result = runQuery(records, params);
      if (queries.size > 32) queries.clear();
      queries.set(key, result);
    }
    return json({
      hits: result.ranked.slice(offset, offset + limit).map(({ record }) => wire(record)),
      total: result.ranked.length,
      facets: result.facets,
    });
  };

  const expressionsByBook: Handler = (url) => {
    const pid = url.searchParams.get("pid");
    if (!pid) throw new QueryError("pid is required");
    const limit = pagingNumber(url.searchParams, "limit", 10, MAX_LIMIT);
    const offset = pagingNumber(url.searchParams, "offset", 0);
    const list = byWork.get(pid) ?? [];
    return json({
      hits: list.slice(offset, offset + limit).map(wire),
      total: list.length,
    });
  };

  const oneExpression = (id: string): Response => {
    const record = byId.get(id);
    return record ? json(wire(record)) : json({ error: `Expression not found: ${id}` }, 404);
  };

  /** The query parameters the spec lists for each endpoint; any other answers 400. */
  const parameters: Record<string, string[]> = {
    "/api/expressions": [
      "keyword",
      "emotion",
      "body_part",
      "valence",
      "gender",
      "pid",
      "limit",
      "offset",
      "sort",
      "order",
    ],
    "/api/expressions/by-book": ["pid", "limit", "offset"],
  };

  const routes: Record<string, Handler> = {
    "/api/expressions": searchExpressions,
    "/api/expressions/by-book": expressionsByBook,
    "/api/books": () => json(books),
    "/api/stats": () => json(stats),
    "/api/analytics": () => json(analytics),
  };

  const requests: SandboxRequestRecord[] = [];
  const fault = options.rateLimit;
  const windowMs = fault?.windowMs ?? 1_000;
  const recent: number[] = [];

  const answer = (request: Request): Response => {
    const url = new URL(request.url);
    const now = performance.now();
    if (fault) {
      while (recent.length && now - recent[0] >= windowMs) recent.shift();
      if (recent.length >= fault.requests) {
        return new Response("Rate limit exceeded. Try again in 1 seconds.", {
          status: 429,
          headers: fault.retryAfterHeader === false ? {} : { "retry-after": "1" },
        });
      }
      recent.push(now);
    }
    if (request.method !== "GET") return json({ error: "Method not allowed" }, 405);
    try {
      const allowed = parameters[url.pathname] ?? [];
      const unknown = [...new Set(url.searchParams.keys())].filter((k) => !allowed.includes(k));
      if (strict && unknown.length > 0) {
        throw new QueryError(`Unknown parameter: ${unknown.join(", ")}`);
      }
      const route = routes[url.pathname];
      if (route) return route(url);
      const match = /^\/api\/expressions\/([^/]+)$/.exec(url.pathname);
      if (match) return oneExpression(decodeURIComponent(match[1]));
      return json({ error: `No such endpoint: ${url.pathname}` }, 404);
    } catch (error) {
      if (error instanceof QueryError) return json({ error: error.message }, 400);
      throw error;
    }
  };

  const server = serveLocal((request) => {
    const at = performance.now();
    const response = answer(request);
    const url = new URL(request.url);
    requests.push({ path: url.pathname + url.search, at, status: response.status });
    return response;
  }, { maxRequests: options.maxRequests, port: options.port });

  return extendServer(server, {
    expressions: records,
    works,
    requests,
    maxLimit: MAX_LIMIT,
  });
}
