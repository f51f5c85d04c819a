/**
 * POST /api/{account}/{service}/{db}/rdf-index: a site admin (a write key of
 * the site's account, or an admin key) rebuilds the site's graph in bulk.
 * The sandbox's SPARQL store is built at start and is not touched by
 * writes, so a resource created since answers SPARQL only after a rebuild,
 * as a graph built in bulk behaves. The answer's shape is not shown in the
 * spec: by the shapes seed, `{ status: "ready", resources }` (the public
 * resources now in the graph), `{}` or 204 with no body.
 *
 * @module
 */

import { writeRefusal } from "./_auth.ts";
import { buildStore } from "./_store.ts";
import { type ArchiveState, type Caller, errorResponse, json } from "./_state.ts";

/** Rebuilds the graph of one site. */
export function rdfIndexHandler(
  state: ArchiveState,
  account: string,
  service: string,
  db: string,
  caller: Caller | null,
): Response {
  const refused = writeRefusal(caller, account);
  if (refused) return refused;
  const index = state.databases.get(`${account}/${db}`);
  if (!index) return errorResponse(404, `Database not found: ${account}/${db}`);
  if (service !== index.db.settings.service) {
    if (index.formerServices.has(service)) {
      return new Response(null, {
        status: 307,
        headers: {
          location: `${state.origin}/api/${account}/${index.db.settings.service}/${db}/rdf-index`,
        },
      });
    }
    return errorResponse(404, `No database ${db} under service ${service}`);
  }
  if (!index.db.settings.rdf) {
    return errorResponse(
      400,
      `The site ${account}/${db} has no graph: enable the rdf setting first`,
    );
  }
  state.sparql = buildStore(state);
  const resources = index.db.is_public ? index.db.resources.filter((r) => r.is_public).length : 0;
  switch (state.shapes.rdfIndexAnswer) {
    case "none":
      return new Response(null, { status: 204 });
    case "empty":
      return json({});
    default:
      return json({ status: "ready", resources });
  }
}
