/**
 * One GraphQL request: a POST marked idempotent (so `lib/http` retries it on
 * transport failures and 5xx), with `errors` in a 200 (or 400) answer
 * turned into a {@linkcode ProtocolError} that keeps every message and any
 * partial `data`.
 *
 * @module
 */

import { answersOnly } from "../http/cache_policy.ts";
import type { HttpClient } from "../http/client.ts";
import { errorFromResponse } from "../http/error_from_response.ts";
import { NotFoundError, ProtocolError } from "../errors/errors.ts";

/** The paths a subgraph endpoint has: graph-node's by name or id, and a gateway's with its key. */
const SUBGRAPH_PATH = /\/subgraphs\/(name|id)\/[^/]+|\/deployments\/id\/[^/]+/;

const SUBGRAPH_SHAPES =
  "/subgraphs/name/<owner>/<name> or /subgraphs/id/<id> on a graph-node, /api/<key>/subgraphs/id/<id> on a gateway";

/**
 * A 404 told apart: a URL without a subgraph's path is not a subgraph
 * endpoint at all (the hint says what one looks like); one with it names a
 * subgraph the server does not have.
 */
function notASubgraph(error: NotFoundError, url: string): NotFoundError {
  const path = new URL(url).pathname;
  const shaped = SUBGRAPH_PATH.test(path);
  return new NotFoundError(
    shaped
      ? `No such subgraph: POST ${url} answered 404`
      : `Not a subgraph endpoint: POST ${url} answered 404, and its path ${path} is not a subgraph's`,
    {
      status: 404,
      method: "POST",
      url: error.url, // as the first error kept it: redacted
      details: error.details,
      hint: shaped
        ? "Check the subgraph's name or id (and, on a gateway, that the key may query it)"
        : `Give the subgraph's own address: ${SUBGRAPH_SHAPES}`,
      cause: error,
    },
  );
}

/** A GraphQL response body. */
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message?: unknown }[];
}

/**
 * A GraphQL answer is kept only with `data` and without `errors`: errors come
 * with HTTP 200 (an indexing hiccup, a timeout), and a stored one would
 * outlive its cause; partial `data` beside errors is not an answer either.
 */
const GRAPHQL_ANSWER = answersOnly("GraphQL query", (response) => {
  const body = response.json<GraphqlBody>();
  return !!body && typeof body === "object" && !(Array.isArray(body.errors) &&
    body.errors.length > 0) &&
    !!body.data && typeof body.data === "object";
});

/** Sends one query and returns its `data`. */
export async function runQuery<T>(
  http: HttpClient,
  url: string,
  document: string,
  variables: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<T> {
  const response = await http.request({
    method: "POST",
    path: url,
    json: { query: document, variables },
    headers: { accept: "application/json" },
    idempotent: true,
    // graph-node answers malformed queries with 400 and a GraphQL body
    acceptStatus: [400],
    cachePolicy: GRAPHQL_ANSWER,
    signal,
  }).catch((error) => {
    throw error instanceof NotFoundError ? notASubgraph(error, url) : error;
  });
  let body: GraphqlBody;
  try {
    body = response.json<GraphqlBody>();
  } catch {
    if (response.status === 400) throw errorFromResponse("POST", response);
    throw new ProtocolError(`Subgraph answered with a body that is not JSON: POST ${url}`, {
      details: response.text().slice(0, 400),
      hint:
        "Check that the URL ends in /subgraphs/name/<owner>/<name> and points at a GraphQL endpoint",
    });
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new ProtocolError(
      `Subgraph answered with JSON that is not a GraphQL response: POST ${url}`,
      {
        details: response.text().slice(0, 400),
        hint: "Check that the URL points at a GraphQL endpoint",
      },
    );
  }
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const messages = body.errors.map((e) =>
      typeof e?.message === "string" ? e.message : JSON.stringify(e)
    );
    throw new ProtocolError(
      `Subgraph query failed with ${messages.length} GraphQL error${
        messages.length === 1 ? "" : "s"
      } (HTTP ${response.status}): ${messages[0]}`,
      {
        messages,
        data: body.data ?? undefined,
        hint: "Partial data, if any, is on error.data; check the field names, the filter and the " +
          "page size (first at most 1,000, skip at most 5,000), or try again if the subgraph is indexing",
      },
    );
  }
  if (response.status === 400) throw errorFromResponse("POST", response);
  if (!body.data || typeof body.data !== "object") {
    throw new ProtocolError(`Subgraph answered without data and without errors: POST ${url}`, {
      hint: "The endpoint may not be a GraphQL server; check the URL",
    });
  }
  return body.data as T;
}
