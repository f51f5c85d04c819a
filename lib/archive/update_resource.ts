/**
 * PATCH /{account}/{db}/api/resources/{id}: a partial update.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { type CreateResourceInput, resourceBody } from "./create_resource.ts";
import { sendWrite } from "./_write.ts";
import { type ArchiveResource, type RawResource, toResource } from "./types.ts";

/** The body of {@linkcode Archive.updateResource}, on the archive's shared state; documented there. */
export async function updateResource(
  context: ArchiveContext,
  id: string,
  changes: Partial<Omit<CreateResourceInput, "slug">>,
): Promise<ArchiveResource> {
  const { account, db } = requireTarget(context, "updateResource");
  const response = await sendWrite(context, {
    method: "PATCH",
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
    json: resourceBody(changes),
  }, { action: `update resource ${id}`, account });
  return toResource(response.json<RawResource>());
}
