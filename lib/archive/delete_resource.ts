/**
 * DELETE /{account}/{db}/api/resources/{id}.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { sendWrite } from "./_write.ts";

/**
 * Deletes a resource (never retried). Note that ResourceSync change lists
 * do not report deletions.
 *
 * @param context The archive's shared state.
 * @param id The slug or UUID.
 * @returns Nothing once it is deleted.
 *
 * @example Delete a draft
 * ```ts ignore
 * await archive.deleteResource("letter-9001");
 * ```
 */
export async function deleteResource(context: ArchiveContext, id: string): Promise<void> {
  const { account, db } = requireTarget(context, "deleteResource");
  await sendWrite(context, {
    method: "DELETE",
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
  }, { action: `delete resource ${id}`, account });
}
