/**
 * One resource by slug or UUID.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { type ArchiveResource, type RawResource, toResource } from "./types.ts";

/**
 * Fetches one resource. A private resource answers 404 without a key; with
 * a key the request is repeated with it.
 *
 * @param context The archive's shared state.
 * @param id The slug or UUID.
 * @returns The resource.
 *
 * @example One letter
 * ```ts ignore
 * const letter = await archive.resource("letter-0001");
 * console.log(letter.metadata["dcterms:creator"]);
 * ```
 */
export async function resource(context: ArchiveContext, id: string): Promise<ArchiveResource> {
  const { account, db } = requireTarget(context, "resource");
  const response = await send(context, {
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
  });
  const body = response.json<RawResource | { data: RawResource }>();
  return toResource("data" in body && body.data ? body.data : body as RawResource);
}
