/**
 * One authority record (entity) of the account.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import type { ArchiveEntity } from "./types.ts";

/** The body of {@linkcode Archive.entity}, on the archive's shared state; documented there. */
export async function entity(context: ArchiveContext, slug: string): Promise<ArchiveEntity> {
  const { account } = requireTarget(context, "entity", false);
  const response = await send(context, {
    path: `/api/${segment(account)}/entities/${segment(slug)}`,
  });
  const raw = response.json<Record<string, unknown>>();
  const coordinates = raw.coordinates as { lat?: unknown; lon?: unknown } | undefined;
  return {
    slug: String(raw.slug ?? slug),
    entityType: String(raw.entityType ?? raw.entity_type ?? ""),
    prefLabel: (raw.prefLabel ?? {}) as Record<string, string>,
    altLabels: Array.isArray(raw.altLabels) ? raw.altLabels.map(String) : [],
    sameAs: Array.isArray(raw.sameAs) ? raw.sameAs.map(String) : [],
    coordinates: coordinates && typeof coordinates.lat === "number" &&
        typeof coordinates.lon === "number"
      ? { lat: coordinates.lat, lon: coordinates.lon }
      : null,
  };
}
