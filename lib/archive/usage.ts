/**
 * GET /api/{account}/usage.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";

/** The body of {@linkcode Archive.usage}, on the archive's shared state; documented there. */
export async function usage(context: ArchiveContext): Promise<Record<string, unknown>> {
  const { account } = requireTarget(context, "usage", false);
  // A read: retried like any read, never cached (it carries the key).
  const response = await send(context, {
    path: `/api/${segment(account)}/usage`,
    auth: true,
    cacheable: false,
  });
  return response.json<Record<string, unknown>>();
}
