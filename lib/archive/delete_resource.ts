/**
 * DELETE /{account}/{db}/api/resources/{id}.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { sendWrite } from "./_write.ts";

/** The body of {@linkcode Archive.deleteResource}, on the archive's shared state; documented there. */
export async function deleteResource(context: ArchiveContext, id: string): Promise<void> {
  const { account, db } = requireTarget(context, "deleteResource");
  await sendWrite(context, {
    method: "DELETE",
    path: `/${segment(account)}/${segment(db)}/api/resources/${segment(id)}`,
  }, { action: `delete resource ${id}`, account });
}
