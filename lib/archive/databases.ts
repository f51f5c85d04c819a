/**
 * The accounts catalogue: databases (sites) with their serving app.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { type ArchiveContext, send } from "./_context.ts";
import { catalogueEntries } from "./_catalogue.ts";
import { sendWithSession } from "./domains.ts";
import type { DatabaseRow } from "./rows.ts";

/** Parameters of {@linkcode Archive.databases}. */
export interface DatabasesParameters {
  /**
   * `public` (default): public databases; `mine`: adds your own private
   * databases (sends the API key, else the identity-provider `session`);
   * `all`: every database (admin keys only).
   */
  scope?: "public" | "mine" | "all";
}

/** One database as the accounts catalogue sends it (fields beyond those named are not shown). */
export type RawDatabase = Record<string, unknown> & { settings?: Record<string, unknown> };

/** Columns of the catalogue table. */
export const DATABASE_SCHEMA: TableSchema<RawDatabase, DatabaseRow> = defineSchema([
  { name: "account", type: "string", description: "account slug" },
  { name: "slug", type: "string", description: "database slug" },
  { name: "title", type: "string", description: "database title" },
  {
    name: "service",
    type: "string",
    get: (r) => r.service ?? r.settings?.service,
    description: "serving app: dl, text or records",
  },
  {
    name: "provider",
    type: "string",
    get: (r) => r.provider ?? r.settings?.provider,
    description: "holding institution",
  },
  {
    name: "rdf",
    type: "boolean",
    get: (r) => Boolean(r.rdf ?? r.settings?.rdf ?? false),
    description: "whether the site keeps a graph and a SPARQL endpoint",
  },
  {
    name: "isPublic",
    type: "boolean",
    get: (r) => r.is_public ?? r.isPublic ?? true,
    description: "whether the database is public",
  },
]);

/** The body of {@linkcode Archive.databases}, on the archive's shared state; documented there. */
export async function databases(
  context: ArchiveContext,
  parameters: DatabasesParameters = {},
): Promise<ColumnTable> {
  const scope = parameters.scope ?? "public";
  const request = {
    path: "/api/accounts",
    query: { scope: scope === "public" ? undefined : scope },
  };
  // `scope=mine` takes a session or an API key (spec section 5): the key
  // when there is one, else the identity-provider session.
  const response = scope === "mine" && !context.apiKey && context.session
    ? await sendWithSession(context, request, "or an API key to list your own databases")
    : await send(context, { ...request, auth: scope === "public" ? false : true });
  const rows = catalogueEntries(response.json<unknown>()) as RawDatabase[];
  for (const row of rows) {
    if (row.account !== undefined && row.slug !== undefined && row.service !== undefined) {
      context.services.set(`${row.account}/${row.slug}`, String(row.service));
    }
  }
  return buildTable(DATABASE_SCHEMA, rows);
}
