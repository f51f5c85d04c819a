/**
 * GET /api/{account}/usage.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { sendWrite } from "./_write.ts";

/**
 * The account's usage. The shape is not given by the platform, so the
 * answer is handed back as sent (the sandbox sends `databases`,
 * `resources`, `assets`, `storage_bytes`, `requests`).
 *
 * @param context The archive's shared state.
 * @returns The usage object.
 *
 * @example Storage used
 * ```ts ignore
 * const { storage_bytes } = await archive.usage();
 * ```
 */
export async function usage(context: ArchiveContext): Promise<Record<string, unknown>> {
  const { account } = requireTarget(context, "usage", false);
  const response = await sendWrite(context, {
    method: "GET",
    path: `/api/${segment(account)}/usage`,
  }, { action: `read the usage of ${account}`, account, scope: "read" });
  return response.json<Record<string, unknown>>();
}
