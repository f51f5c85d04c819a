/**
 * The one reader of the accounts catalogue (GET /api/accounts). The spec
 * names only each database's identity and `service`; the envelope is not
 * shown, so every caller reads it through here: a bare list, `{databases}`
 * (or `{libraries}`, `{data}`), or accounts holding their databases.
 *
 * @module
 */

import { type ArchiveContext, send } from "./_context.ts";

/** One database as the catalogue sends it (fields beyond those named are not shown). */
export type CatalogueEntry = Record<string, unknown> & {
  account?: string;
  slug?: string;
  service?: string;
  settings?: Record<string, unknown>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The account slug of an entry: a string, or an object with a slug. */
function accountOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (isRecord(value) && typeof value.slug === "string") return value.slug;
  return undefined;
}

/**
 * Flattens any of the catalogue's plausible shapes into one entry per
 * database, each with `account`, `slug`, `service` (from `settings` when
 * only there) and `settings` (an object, possibly empty).
 */
export function catalogueEntries(body: unknown): CatalogueEntry[] {
  const list = Array.isArray(body)
    ? body
    : isRecord(body)
    ? [body.databases, body.libraries, body.data, body.accounts].find(Array.isArray) ?? []
    : [];
  const entries: CatalogueEntry[] = [];
  for (const item of list as unknown[]) {
    if (!isRecord(item)) continue;
    const nested = [item.databases, item.libraries].find(Array.isArray) as unknown[] | undefined;
    if (nested) {
      for (const db of nested) {
        if (isRecord(db)) entries.push(entry(db, accountOf(item.slug ?? item.account)));
      }
    } else entries.push(entry(item, undefined));
  }
  return entries;
}

function entry(raw: Record<string, unknown>, account: string | undefined): CatalogueEntry {
  const settings = isRecord(raw.settings) ? raw.settings : {};
  const service = raw.service ?? settings.service;
  return {
    ...raw,
    account: accountOf(raw.account) ?? account,
    slug: typeof raw.slug === "string" ? raw.slug : undefined,
    service: service === undefined || service === null ? undefined : String(service),
    settings,
  };
}

/**
 * Reads the catalogue with the key (`scope=mine`) and finds one database.
 *
 * @param context The archive's shared state.
 * @param account The account slug.
 * @param slug The database slug.
 * @returns The entry, or undefined when the catalogue does not list it.
 */
export async function findInCatalogue(
  context: ArchiveContext,
  account: string,
  slug: string,
): Promise<CatalogueEntry | undefined> {
  const response = await send(context, {
    path: "/api/accounts",
    query: { scope: "mine" },
    auth: true,
    cacheable: false,
  });
  return catalogueEntries(response.json<unknown>()).find((d) =>
    d.account === account && d.slug === slug
  );
}
