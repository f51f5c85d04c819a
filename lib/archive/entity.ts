/**
 * One authority record (entity) of the account.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import type { ArchiveEntity } from "./types.ts";

/**
 * Fetches an authority record.
 *
 * @param context The archive's shared state.
 * @param slug The entity slug.
 * @returns The entity with its labels in every language, variants and `sameAs` links.
 *
 * @example The labels of a place
 * ```ts ignore
 * const tokyo = await archive.entity("tokyo");
 * console.log(tokyo.prefLabel.ja, tokyo.altLabels);
 * ```
 */
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
