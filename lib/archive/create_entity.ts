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

/** The body of {@linkcode Archive.createEntity}, on the archive's shared state; documented there. */
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
