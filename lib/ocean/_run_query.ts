/**
 * Sends a metadata query and checks that the answer has the documented
 * shape: an array of per-collection results.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import { ProtocolError } from "../errors/errors.ts";
import type { TypesenseResult } from "./types.ts";

/** The path of the metadata query endpoint. */
export const QUERY_PATH = "/api/aquarius/assets/metadata/query";

/** POSTs the body (a read-only query, so retried like a GET) and returns the results. */
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
    signal,
  });
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
