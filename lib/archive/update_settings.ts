/**
 * PATCH /{account}/{db}/api/database: changes site settings; a `service`
 * change moves the site's paths, which later requests follow.
 *
 * @module
 */

import { type ArchiveContext, type MovedPath, requireTarget, segment } from "./_context.ts";
import { type DatabaseRecord, toDatabase } from "./create_database.ts";
import { findInCatalogue } from "./_catalogue.ts";
import { answerJson, sendWrite } from "./_write.ts";

/** What {@linkcode Archive.updateSettings} hands back. */
export interface UpdateSettingsResult {
  /** The database after the change. */
  database: DatabaseRecord;
  /** The move a service switch caused (the old path now answers 307), if any. */
  moved?: MovedPath;
}

/** The body of {@linkcode Archive.updateSettings}, on the archive's shared state; documented there. */
export async function updateSettings(
  context: ArchiveContext,
  settings: Record<string, unknown>,
): Promise<UpdateSettingsResult> {
  const { account, db } = requireTarget(context, "updateSettings");
  const before = settings.service === undefined
    ? undefined
    : (await findInCatalogue(context, account, db))?.service;
  const response = await sendWrite(context, {
    method: "PATCH",
    path: `/${segment(account)}/${segment(db)}/api/database`,
    json: { settings },
  }, { action: `update the settings of ${account}/${db}`, account });
  const database = toDatabase(answerJson(response), { account, slug: db, settings });
  const after = settings.service === undefined ? undefined : String(settings.service);
  if (!before || !after || before === after) return { database };
  context.services.set(`${account}/${db}`, after);
  const moved = {
    from: `/api/${segment(account)}/${segment(before)}/${segment(db)}`,
    to: `/api/${segment(account)}/${segment(after)}/${segment(db)}`,
  };
  if (!context.moved.some((m) => m.from === moved.from && m.to === moved.to)) {
    context.moved.push(moved);
    context.http.warn(
      `The archive moved ${moved.from} to ${moved.to} (a service switch: the old path answers 307); later requests use the new path`,
    );
  }
  return { database, moved };
}
