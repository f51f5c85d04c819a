/**
 * GET /api/accounts: the catalogue of databases, with `scope=mine` (own
 * private databases, key needed) and `scope=all` (admin only). Its
 * envelope is not shown in the spec: the sandbox's `shapes.accounts` picks one.
 *
 * @module
 */

import { type ArchiveState, type Caller, errorResponse, json, unlisted } from "./_state.ts";

/** Answers the accounts catalogue. */
export function accountsHandler(state: ArchiveState, url: URL, caller: Caller | null): Response {
  const refused = unlisted(state, "parameter", url.searchParams.keys(), (k) => k === "scope");
  if (refused) return refused;
  const scope = url.searchParams.get("scope");
  if ((scope === "mine" || scope === "all") && !caller) {
    return errorResponse(401, `scope=${scope} needs a session or an API key`);
  }
  if (scope === "all" && !caller!.admin) return errorResponse(403, "scope=all is for admins only");
  if (scope && scope !== "mine" && scope !== "all") {
    return errorResponse(400, `Unknown scope: ${scope}`);
  }
  const databases = state.seed.databases
    .filter((db) =>
      db.is_public || scope === "all" || (scope === "mine" && caller!.account === db.account)
    )
    .map((db) => ({
      account: db.account,
      slug: db.slug,
      title: db.title,
      service: db.settings.service,
      is_public: db.is_public,
      settings: db.settings,
      ...state.shapes.extraFields,
    }));
  switch (state.shapes.accounts) {
    case "list":
      return json(databases);
    case "accounts": {
      const accounts = [...new Set(databases.map((d) => d.account))];
      return json({
        accounts: accounts.map((slug) => ({
          slug,
          databases: databases.filter((d) => d.account === slug).map(({ account: _, ...db }) => db),
        })),
      });
    }
    default:
      return json({ databases });
  }
}
