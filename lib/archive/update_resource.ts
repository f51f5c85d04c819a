/**
 * PATCH /{account}/{db}/api/resources/{id}: a partial update.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { type CreateResourceInput, resourceBody } from "./create_resource.ts";
import { sendWrite } from "./_write.ts";
import { type ArchiveResource, type RawResource, toResource } from "./types.ts";

/**
 * Updates the given fields of a resource; the others stay. Metadata keys
 * given are set, the others kept.
 *
 * @param context The archive's shared state.
 * @param id The slug or UUID.
 * @param changes The fields to change.
 * @returns The resource after the change.
 *
 * @example Retitle
 * ```ts ignore
 * await archive.updateResource("letter-0001", { title: "Letter to Natsume Sōseki" });
 * ```
 */
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
