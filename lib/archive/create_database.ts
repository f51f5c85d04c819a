/**
 * POST /api/{account}/databases: creates a database (site).
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { isNetworkError, sendWrite } from "./_write.ts";

/** A database as the write endpoints answer it. */
export interface DatabaseRecord {
  /** The account slug. */
  account: string;
  /** The database slug. */
  slug: string;
  /** The title. */
  title: string;
  /** Whether the site is public. */
  isPublic: boolean;
  /** The site settings (`service`, `card`, `provider`, `ogImage`, `rdf`, ...). */
  settings: Record<string, unknown>;
}

/** The raw database answer. */
export interface RawDatabase {
  account: string;
  slug: string;
  title: string;
  is_public: boolean;
  settings: Record<string, unknown>;
}

/** Turns the raw answer into a {@linkcode DatabaseRecord}. */
export function toDatabase(raw: RawDatabase): DatabaseRecord {
  return {
    account: raw.account,
    slug: raw.slug,
    title: raw.title,
    isPublic: raw.is_public,
    settings: raw.settings,
  };
}

/**
 * Creates a database in the Archive's account. After a network error the
 * catalogue is read before anything is resent, so a lost answer cannot
 * create it twice.
 *
 * @param context The archive's shared state.
 * @param input The slug and title.
 * @returns The new database.
 *
 * @example A new site
 * ```ts ignore
 * const db = await archive.createDatabase({ slug: "postcards", title: "Postcards" });
 * ```
 */
export async function createDatabase(
  context: ArchiveContext,
  input: { slug: string; title: string },
): Promise<DatabaseRecord> {
  const { account } = requireTarget(context, "createDatabase", false);
  const request = {
    method: "POST" as const,
    path: `/api/${segment(account)}/databases`,
    json: { slug: input.slug, title: input.title },
  };
  const what = { action: `create database ${input.slug}`, account, slug: input.slug };
  try {
    return toDatabase((await sendWrite(context, request, what)).json<RawDatabase>());
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    const found = await findDatabase(context, account, input.slug);
    if (found) {
      context.http.warn(`The answer to create database ${input.slug} was lost, but it exists`);
      return found;
    }
    return toDatabase((await sendWrite(context, request, what)).json<RawDatabase>());
  }
}

async function findDatabase(
  context: ArchiveContext,
  account: string,
  slug: string,
): Promise<DatabaseRecord | undefined> {
  const response = await send(context, {
    path: "/api/accounts",
    query: { scope: "mine" },
    auth: true,
  });
  const list = response.json<{ databases: RawDatabase[] }>().databases;
  const found = list.find((d) => d.account === account && d.slug === slug);
  return found ? toDatabase(found) : undefined;
}
