/**
 * GET /api/{account}/entities/{slug}: an authority record, or its linked
 * data with `format=jsonld`.
 *
 * @module
 */

import { entityTriples, toJsonLd } from "./_linked_data.ts";
import { entityUri } from "./_mapping.ts";
import { type ArchiveState, errorResponse, json } from "./_state.ts";

/** Answers an entity. */
export function entityHandler(
  state: ArchiveState,
  account: string,
  slug: string,
  url: URL,
): Response {
  const entity = state.entities.get(account)?.find((e) => e.slug === slug);
  if (!entity) return errorResponse(404, `Entity not found: ${slug}`);
  if (url.searchParams.get("format") === "jsonld") {
    const uri = entityUri(state, account, slug);
    return json(toJsonLd(entityTriples(entity, uri), uri), 200, {
      "content-type": "application/ld+json; charset=utf-8",
    });
  }
  return json({ ...entity, ...state.shapes.extraFields });
}
