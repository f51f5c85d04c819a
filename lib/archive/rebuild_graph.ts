/**
 * POST .../rdf-index: a site admin builds or rebuilds, in bulk, the graph
 * the site's SPARQL endpoint reads (spec section 4).
 *
 * @module
 */

import { answerJson, sendWrite } from "./_write.ts";
import { type ArchiveContext, requireTarget } from "./_context.ts";
import { endpointBase } from "./sparql.ts";

/** Options of {@linkcode Archive.rebuildGraph}. */
export interface RebuildGraphOptions {
  /** Another database of the account than the Archive's own. */
  db?: string;
  /** Its serving app (`dl`, `text`, `records`), when the catalogue does not list it. */
  service?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode Archive.rebuildGraph}, on the archive's shared state; documented there. */
export async function rebuildGraph(
  context: ArchiveContext,
  options: RebuildGraphOptions = {},
): Promise<Record<string, unknown>> {
  const { account } = requireTarget(context, "rebuildGraph");
  const db = options.db ?? context.db!;
  // The site's path is the SPARQL endpoint's, `/api/{account}/{service}/{db}`.
  const base = await endpointBase(context, options);
  const response = await sendWrite(context, {
    method: "POST",
    path: `${base}/rdf-index`,
    tail: "/rdf-index",
    signal: options.signal,
  }, { action: `rebuild the graph of ${account}/${db}`, account });
  const body = answerJson(response);
  // The answer's shape is not shown in the spec: handed back as sent, `{}` when empty.
  return body && typeof body === "object" && !Array.isArray(body)
    ? body as Record<string, unknown>
    : {};
}
