/**
 * Sends a metadata query and checks that the answer has the documented
 * shape: an array of per-collection results.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import { HttpError, ProtocolError } from "../errors/errors.ts";
import { serverMessage } from "../http/error_from_response.ts";
import type { TypesenseResult } from "./types.ts";

/** The path of the metadata query endpoint. */
export const QUERY_PATH = "/api/aquarius/assets/metadata/query";

/**
 * POSTs the body (a read-only query, so retried like a GET on a timeout, a
 * 502, 503 or 429) and returns the results. A 500 is the node's "metadata
 * query failure" (spec section 7): the same body fails the same way, so it
 * is thrown at once, not retried.
 */
export async function runQuery(
  http: HttpClient,
  body: unknown,
  signal?: AbortSignal,
): Promise<TypesenseResult[]> {
  const response = await http.request({
    method: "POST",
    path: QUERY_PATH,
    json: body,
    idempotent: true,
    acceptStatus: [500],
    signal,
  });
  if (response.status === 500) {
    const said = serverMessage(response.text()) ?? response.text().trim();
    throw new HttpError(
      `Metadata query failed: POST ${response.url} answered 500${
        said ? "" : " with an empty body"
      }`,
      {
        status: 500,
        method: "POST",
        url: response.url,
        body: response.text(),
        serverMessage: serverMessage(response.text()),
        hint:
          "The node could not run this query (not retried: the same body fails the same way); check the " +
          "filter and field names, or try again later if the node's search engine is down",
      },
    );
  }
  const results = response.json<unknown>();
  if (!Array.isArray(results)) {
    throw new ProtocolError(
      "Unexpected metadata query answer: expected an array of per-collection results",
      {
        details: response.text(),
        hint:
          "Check that the URL is an Ocean node (the path is /api/aquarius/assets/metadata/query)",
      },
    );
  }
  for (const result of results) {
    if (!result || typeof result !== "object" || !Array.isArray(result.hits)) {
      throw new ProtocolError(
        "Unexpected metadata query answer: a collection result has no hits array",
        {
          details: JSON.stringify(result),
          hint: "The node version may differ from the one tidepool knows (4.2.0)",
        },
      );
    }
  }
  return results as TypesenseResult[];
}
