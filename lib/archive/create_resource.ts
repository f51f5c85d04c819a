/**
 * POST /{account}/{db}/api/resources: creates a resource.
 *
 * @module
 */

import { NotFoundError } from "../http/errors.ts";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { isNetworkError, sendWrite } from "./_write.ts";
import { type ArchiveResource, type MetadataValue, type RawResource, toResource } from "./types.ts";

/** The fields of a new resource. */
export interface CreateResourceInput {
  /** Unique per database; a duplicate answers 409. */
  slug: string;
  /** `item` (default) or `collection`. */
  type?: string;
  /** The title. */
  title: string;
  /** CURIE keys (`dcterms:creator`) and free keys. */
  metadata?: Record<string, MetadataValue>;
  /** Whether it is public; default true. */
  isPublic?: boolean;
  /** The parent's slug. */
  parent?: string | null;
}

/** The JSON body of a resource write. */
export function resourceBody(input: Partial<CreateResourceInput>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of ["slug", "type", "title", "metadata", "parent"] as const) {
    if (input[key] !== undefined) body[key] = input[key];
  }
  if (input.isPublic !== undefined) body.is_public = input.isPublic;
  return body;
}

/** The body of {@linkcode Archive.createResource}, on the archive's shared state; documented there. */
export async function createResource(
  context: ArchiveContext,
  input: CreateResourceInput,
): Promise<ArchiveResource> {
  const { account, db } = requireTarget(context, "createResource");
  const request = {
    method: "POST" as const,
    path: `/${segment(account)}/${segment(db)}/api/resources`,
    json: resourceBody(input),
  };
  const what = { action: `create resource ${input.slug}`, account, slug: input.slug };
  try {
    return toResource((await sendWrite(context, request, what)).json<RawResource>());
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    try {
      const existing = await send(context, {
        path: `/${segment(account)}/${segment(db)}/api/resources/${segment(input.slug)}`,
        auth: true,
        cacheable: false,
      });
      context.http.warn(
        `The answer to create resource ${input.slug} was lost, but the resource exists: not resending`,
      );
      return toResource(existing.json<RawResource>());
    } catch (readError) {
      if (!(readError instanceof NotFoundError)) throw error;
    }
    return toResource((await sendWrite(context, request, what)).json<RawResource>());
  }
}
