/**
 * A SPARQL query against a site's endpoint, answered as a table, a boolean
 * or a triples table: the archive's endpoint as a `SparqlTarget` (its path
 * read from the catalogue, its key policy), sent by lib/sparql.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { requireTarget, segment, send, sendStreamed } from "./_context.ts";
import type { ArchiveContext } from "./_context.ts";
import {
  type CompanionOptions,
  type ResultFormat,
  runQuery,
  type SparqlQueryOptions,
  type SparqlResult,
  type SparqlTarget,
} from "../sparql/run_query.ts";
import { databases } from "./databases.ts";
import { unknownDatabase } from "./_database_typo.ts";

export type { CompanionOptions, ResultFormat, SparqlResult };

/** Options of {@linkcode Archive.sparql}. */
export interface SparqlOptions extends SparqlQueryOptions {
  /** Another database of the account (default: the Archive's `db`). */
  db?: string;
  /** The database's service (`dl`, `text`, `records`); default: read from the catalogue. */
  service?: string;
}

/** The database's endpoint as lib/sparql sends to it. */
export function archiveTarget(
  context: ArchiveContext,
  options: Pick<SparqlOptions, "db" | "service">,
): SparqlTarget {
  return {
    http: context.http,
    endpoint: async () => `${await endpointBase(context, options)}/sparql`,
    send: (request) => send(context, { ...request, tail: "/sparql" }),
    sendStreamed: (request) => sendStreamed(context, { ...request, tail: "/sparql" }),
  };
}

/** The body of {@linkcode Archive.sparql}, on the archive's shared state; documented there. */
export function runSparql(
  context: ArchiveContext,
  query: string,
  options: SparqlOptions = {},
): Promise<SparqlResult> {
  const { db, service, ...rest } = options;
  return runQuery(archiveTarget(context, { db, service }), query, rest);
}

/** `/api/{account}/{service}/{db}`, the service read from the catalogue once. */
export async function endpointBase(
  context: ArchiveContext,
  options: Pick<SparqlOptions, "db" | "service">,
): Promise<string> {
  const { account } = requireTarget(context, "sparql");
  const db = options.db ?? context.db!;
  const key = `${account}/${db}`;
  let service = options.service ?? context.services.get(key);
  if (!service) {
    await databases(context, {});
    service = context.services.get(key);
  }
  // In replay the private listing recorded with a key serves a replay without one.
  if (!service && (context.apiKey || context.http.replaying)) {
    await databases(context, { scope: "mine" });
    service = context.services.get(key);
  }
  if (!service) {
    const unknown = await unknownDatabase(context, account, db);
    if (unknown) throw unknown;
    throw new TidepoolError(`Cannot find the serving app of the database ${key}`, {
      hint:
        'The accounts catalogue lists no service for it: pass { service: "dl" } (or text, records) to sparql()',
    });
  }
  return `/api/${segment(account)}/${segment(service)}/${segment(db)}`;
}
