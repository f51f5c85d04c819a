/**
 * GET /api/{account}/usage.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { sendWrite } from "./_write.ts";

/** The body of {@linkcode Archive.usage}, on the archive's shared state; documented there. */
export async function usage(context: ArchiveContext): Promise<Record<string, unknown>> {
  const { account } = requireTarget(context, "usage", false);
  const response = await sendWrite(context, {
    method: "GET",
    path: `/api/${segment(account)}/usage`,
  }, { action: `read the usage of ${account}`, account, scope: "read" });
  return response.json<Record<string, unknown>>();
}
