/**
 * POST /api/{account}/entities: creates an authority record.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { sendWrite } from "./_write.ts";
import type { ArchiveEntity } from "./types.ts";

/** The fields of a new entity. */
export interface CreateEntityInput {
  /** Unique per account. */
  slug: string;
  /** The kind, e.g. `place`, `person`. */
  entityType: string;
  /** Language code to label. */
  prefLabel: Record<string, string>;
  /** Spelling variants and transliterations. */
  altLabels?: string[];
  /** External authority URIs. */
  sameAs?: string[];
  /** Coordinates, for places. */
  coordinates?: { lat: number; lon: number };
}

/**
 * Creates an account-wide authority record (needs the owner's write key).
 *
 * @param context The archive's shared state.
 * @param input The slug, entityType, prefLabel, altLabels, sameAs and coordinates.
 * @returns The entity as created.
 *
 * @example A place
 * ```ts ignore
 * await archive.createEntity({ slug: "nagasaki", entityType: "place", prefLabel: { en: "Nagasaki", ja: "長崎" }, altLabels: ["Nangasaki"], sameAs: [] });
 * ```
 */
export async function createEntity(
  context: ArchiveContext,
  input: CreateEntityInput,
): Promise<ArchiveEntity> {
  const { account } = requireTarget(context, "createEntity", false);
  const response = await sendWrite(context, {
    method: "POST",
    path: `/api/${segment(account)}/entities`,
    json: { altLabels: [], sameAs: [], ...input },
  }, { action: `create entity ${input.slug}`, account, slug: input.slug });
  const body = response.json<ArchiveEntity>();
  return {
    ...body,
    altLabels: body.altLabels ?? [],
    sameAs: body.sameAs ?? [],
    coordinates: body.coordinates ?? null,
  };
}
