/**
 * POST /api/{account}/databases: creates a database (site).
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { answerJson, isNetworkError, sendWrite } from "./_write.ts";
import { findInCatalogue } from "./_catalogue.ts";

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

/** What is known of a database before its answer is read: the request's own values. */
export interface KnownDatabase {
  account: string;
  slug: string;
  title?: string;
  settings?: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Turns a write's answer (or a catalogue entry) into a {@linkcode DatabaseRecord}.
 * The answer's shape is not shown: it may be the database, `{database}`, or
 * empty; what it leaves out is taken from what was sent.
 */
export function toDatabase(raw: unknown, known: KnownDatabase): DatabaseRecord {
  const body = isRecord(raw) && isRecord(raw.database) ? raw.database : raw;
  const record = isRecord(body) ? body : {};
  const settings = {
    ...known.settings,
    ...(isRecord(record.settings) ? record.settings : {}),
  };
  if (record.service !== undefined && settings.service === undefined) {
    settings.service = record.service;
  }
  const isPublic = record.is_public ?? record.isPublic;
  return {
    account: typeof record.account === "string" ? record.account : known.account,
    slug: typeof record.slug === "string" ? record.slug : known.slug,
    title: typeof record.title === "string" ? record.title : known.title ?? "",
    isPublic: typeof isPublic === "boolean" ? isPublic : true,
    settings,
  };
}

/** The body of {@linkcode Archive.createDatabase}, on the archive's shared state; documented there. */
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
  const known = { account, slug: input.slug, title: input.title };
  const what = { action: `create database ${input.slug}`, account, slug: input.slug };
  try {
    return toDatabase(answerJson(await sendWrite(context, request, what)), known);
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    const found = await findInCatalogue(context, account, input.slug);
    if (found) {
      context.http.warn(`The answer to create database ${input.slug} was lost, but it exists`);
      return toDatabase(found, known);
    }
    return toDatabase(answerJson(await sendWrite(context, request, what)), known);
  }
}
