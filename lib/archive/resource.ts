/**
 * One resource by slug or UUID.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { type ArchiveResource, type RawResource, toResource } from "./types.ts";

/** The body of {@linkcode Archive.resource}, on the archive's shared state; documented there. */
export async function resource(context: ArchiveContext, id: string): Promise<ArchiveResource> {
  const { account, db } = requireTarget(context, "resource");
  const response = await send(context, {
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
  });
  const body = response.json<RawResource | { data: RawResource }>();
  return toResource("data" in body && body.data ? body.data : body as RawResource);
}
