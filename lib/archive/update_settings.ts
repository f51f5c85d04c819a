/**
 * PATCH /{account}/{db}/api/database: changes site settings; a `service`
 * change is followed to the site's new path.
 *
 * @module
 */

import { type ArchiveContext, type MovedPath, requireTarget, segment, send } from "./_context.ts";
import { type DatabaseRecord, type RawDatabase, toDatabase } from "./create_database.ts";
import { sendWrite } from "./_write.ts";

/** What {@linkcode updateSettings} hands back. */
export interface UpdateSettingsResult {
  /** The database after the change. */
  database: DatabaseRecord;
  /** The move a service switch caused (the old path now answers 307), if any. */
  moved?: MovedPath;
}

/**
 * Updates the site settings. When `service` changes, the old site path is
 * requested once: its 307 is followed, remembered for later requests and
 * reported as `moved`.
 *
 * @param context The archive's shared state.
 * @param settings The settings to change (`service`, `card`, `provider`, `ogImage`, `rdf`).
 * @returns The database and the move, if any.
 *
 * @example Switch the serving app
 * ```ts ignore
 * const { moved } = await archive.updateSettings({ service: "records" });
 * ```
 */
export async function updateSettings(
  context: ArchiveContext,
  settings: Record<string, unknown>,
): Promise<UpdateSettingsResult> {
  const { account, db } = requireTarget(context, "updateSettings");
  const before = settings.service === undefined ? undefined : await currentService(context);
  const response = await sendWrite(context, {
    method: "PATCH",
    path: `/${segment(account)}/${segment(db)}/api/database`,
    json: { settings },
  }, { action: `update the settings of ${account}/${db}`, account });
  const database = toDatabase(response.json<RawDatabase>());
  const after = String(database.settings.service ?? "");
  if (!before || before === after) return { database };
  context.services.set(`${account}/${db}`, after);
  const known = context.moved.length;
  await send(context, {
    path: `/api/${segment(account)}/${before}/${segment(db)}`,
    auth: true,
    cacheable: false,
  });
  return { database, moved: context.moved[known] };
}

async function currentService(context: ArchiveContext): Promise<string | undefined> {
  const { account, db } = requireTarget(context, "updateSettings");
  const response = await send(context, {
    path: "/api/accounts",
    query: { scope: "mine" },
    auth: true,
    cacheable: false,
  });
  const list = response.json<{ databases: RawDatabase[] }>().databases;
  const found = list.find((d) => d.account === account && d.slug === db);
  return found ? String(found.settings.service) : undefined;
}
