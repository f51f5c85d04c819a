/**
 * POST /{account}/{db}/api/resources: creates a resource.
 *
 * @module
 */

import { HttpError, NotFoundError } from "../errors/errors.ts";
import { ConflictError } from "./errors.ts";
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
    const existing = await readBack(context, account, db, input.slug);
    if (existing) return ownCreate(context, input, existing, request.path, "was lost", error);
  }
  try {
    return toResource((await sendWrite(context, request, what)).json<RawResource>());
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const existing = await readBack(context, account, db, input.slug);
    if (!existing) throw error;
    return ownCreate(context, input, existing, request.path, "arrived late", error);
  }
}

/** The resource under a slug, or undefined when there is none. */
async function readBack(
  context: ArchiveContext,
  account: string,
  db: string,
  slug: string,
): Promise<ArchiveResource | undefined> {
  try {
    const response = await send(context, {
      path: `/${segment(account)}/${segment(db)}/api/resources/${segment(slug)}`,
      auth: true,
      cacheable: false,
    });
    return toResource(response.json<RawResource>());
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * A resource found under the slug after an unclear create: returned when it
 * holds what was sent, otherwise a conflict, since it existed before.
 */
function ownCreate(
  context: ArchiveContext,
  input: CreateResourceInput,
  existing: ArchiveResource,
  path: string,
  how: string,
  cause: unknown,
): ArchiveResource {
  const differences = differencesFrom(input, existing);
  if (differences.length === 0) {
    context.http.warn(
      `The answer to create resource ${input.slug} ${how}, and the resource holds what was sent: not resending`,
    );
    return existing;
  }
  throw new ConflictError(
    `Cannot create resource ${input.slug}: a resource with this slug exists and differs in ${
      differences.join(", ")
    }, so it was not made by this call`,
    {
      status: 409,
      method: "POST",
      url: context.http.url(path).toString(),
      body: cause instanceof HttpError ? cause.body : undefined,
      cause,
      hint: "Read it with resource() and update it, or choose another slug",
    },
  );
}

/** The fields of the input that the stored resource does not hold. */
function differencesFrom(input: CreateResourceInput, stored: ArchiveResource): string[] {
  const differences: string[] = [];
  if (stored.title !== input.title) differences.push("title");
  if (input.type !== undefined && stored.type !== input.type) differences.push("type");
  if (input.isPublic !== undefined && stored.isPublic !== input.isPublic) {
    differences.push("visibility");
  }
  if (input.parent !== undefined && (stored.parent ?? null) !== (input.parent ?? null)) {
    differences.push("parent");
  }
  for (const [key, value] of Object.entries(input.metadata ?? {})) {
    if (JSON.stringify(stored.metadata[key] ?? null) !== JSON.stringify(value ?? null)) {
      differences.push(`metadata ${key}`);
    }
  }
  return differences;
}
