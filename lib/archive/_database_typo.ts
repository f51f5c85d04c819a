/**
 * A database name the catalogue does not list, reported the same way by
 * every method (a `NotFoundError`), with the names the user probably meant.
 *
 * @module
 */

import { NotFoundError } from "../errors/errors.ts";
import { closestNames } from "../options/did_you_mean.ts";
import type { ArchiveContext } from "./_archive_state.ts";

/** The database slugs the catalogue lists for an account, read once per client. */
async function knownDatabases(context: ArchiveContext, account: string): Promise<string[]> {
  const listed = () =>
    [...context.services.keys()]
      .filter((key) => key.startsWith(`${account}/`))
      .map((key) => key.slice(account.length + 1));
  if (!context.catalogueRead) {
    context.catalogueRead = true;
    const read = context.readCatalogue;
    await read?.(context, "public").catch(() => undefined);
    if (context.apiKey || context.http.replaying) {
      await read?.(context, "mine").catch(() => undefined);
    }
  }
  return listed();
}

/**
 * The error for a database the catalogue does not list, or undefined when
 * it lists it (then a 404 is about something else) or cannot be read.
 *
 * @param context The archive's shared state.
 * @param account The account slug.
 * @param db The database slug as given.
 * @param cause The error that led here, if any (kept as the cause).
 * @returns A NotFoundError naming the database and the close names.
 */
export async function unknownDatabase(
  context: ArchiveContext,
  account: string,
  db: string,
  cause?: unknown,
): Promise<NotFoundError | undefined> {
  const known = await knownDatabases(context, account);
  if (known.length === 0 || known.includes(db)) return undefined;
  const close = closestNames(db, known);
  const http = cause instanceof NotFoundError ? cause : undefined;
  return new NotFoundError(
    `Cannot find the database ${account}/${db}: the accounts catalogue does not list it${
      close.length ? `; did you mean ${close.map((name) => `"${name}"`).join(" or ")}?` : ""
    }`,
    {
      status: 404,
      method: http?.method ?? "GET",
      url: http?.url ?? context.http.url("/api/accounts").toString(),
      body: http?.body,
      cause,
      hint: `The databases of ${account}: ${known.join(", ")}${
        context.apiKey ? "" : " (a private one is listed only with an apiKey of the account)"
      }`,
    },
  );
}

/**
 * The account and database of a site path (`/{account}/{db}/...`), or
 * undefined for the platform's own `/api/...` paths.
 */
export function siteOf(path: string): { account: string; db: string } | undefined {
  const match = /^\/([^/?]+)\/([^/?]+)(?:[/?]|$)/.exec(path);
  if (!match || match[1] === "api") return undefined;
  try {
    return { account: decodeURIComponent(match[1]), db: decodeURIComponent(match[2]) };
  } catch {
    return undefined;
  }
}
