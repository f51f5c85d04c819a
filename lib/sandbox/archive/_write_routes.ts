/**
 * Which write (or write-side) endpoint a request goes to: the routes of
 * the write handlers, the upload pipeline, the identity-provider
 * endpoints and the site's service path. Undefined for the read routes.
 *
 * @module
 */

import { domainsHandler, issueKeyHandler } from "./me_handler.ts";
import { type ArchiveState, type Caller, canReadDatabase, errorResponse } from "./_state.ts";
import {
  assetHandler,
  finalizeHandler,
  issueUploadHandler,
  storageHandler,
} from "./uploads_handler.ts";
import {
  createDatabaseHandler,
  createEntityHandler,
  importHandler,
  resourceWriteHandler,
  sitePathHandler,
  updateSettingsHandler,
  usageHandler,
} from "./writes_handler.ts";

const SERVICES = new Set(["dl", "text", "records"]);

/** Routes a write-side request, or answers undefined. */
export function writeRoute(
  state: ArchiveState,
  parts: string[],
  request: Request,
  url: URL,
  caller: Caller | null,
): Promise<Response> | Response | undefined {
  const method = request.method;
  if (parts[0] === "_storage" && parts.length === 3) {
    return storageHandler(state, parts[1], parts[2], request, url);
  }
  if (parts[0] === "api" && parts[1] === "me") {
    if (parts[2] === "keys" && parts.length === 3 && method === "POST") {
      return issueKeyHandler(state, request);
    }
    if (parts[2] === "domains" && parts.length === 3) return domainsHandler(state, request);
    return errorResponse(404, `No endpoint ${method} ${url.pathname}`);
  }
  if (parts[0] === "api" && parts.length >= 3) {
    const account = parts[1];
    if (parts[2] === "databases" && parts.length === 3 && method === "POST") {
      return createDatabaseHandler(state, account, request, caller);
    }
    if (parts[2] === "entities" && parts.length === 3 && method === "POST") {
      return createEntityHandler(state, account, request, caller);
    }
    if (parts[2] === "usage" && parts.length === 3 && method === "GET") {
      return usageHandler(state, account, caller);
    }
    if (parts[2] === "uploads" && parts.length === 4) {
      return assetHandler(state, account, parts[3], request, caller);
    }
    if (
      parts[2] === "uploads" && parts[4] === "finalize" && parts.length === 5 && method === "POST"
    ) {
      return finalizeHandler(state, account, parts[3], caller);
    }
    if (SERVICES.has(parts[2]) && parts.length === 4 && method === "GET") {
      const index = state.databases.get(`${account}/${parts[3]}`);
      if (!index || !canReadDatabase(index.db, caller)) {
        return errorResponse(404, `Database not found: ${account}/${parts[3]}`);
      }
      return sitePathHandler(state, index, parts[2]);
    }
    return undefined;
  }
  // The alias form of CSV import: /dl/{db}/import, in the caller's account.
  if (parts[0] === "dl" && parts[2] === "import" && parts.length === 3 && method === "POST") {
    if (!caller) {
      return errorResponse(401, "Authentication required: send an API key with write scope");
    }
    const index = state.databases.get(`${caller.account}/${parts[1]}`);
    if (!index) return errorResponse(404, `Database not found: ${caller.account}/${parts[1]}`);
    return importHandler(state, index, request, caller);
  }
  if (parts[2] !== "api" || method === "GET" || method === "HEAD") return undefined;
  const index = state.databases.get(`${parts[0]}/${parts[1]}`);
  if (!index || !canReadDatabase(index.db, caller)) {
    if (!caller) {
      return errorResponse(401, "Authentication required: send an API key with write scope");
    }
    return errorResponse(404, `Database not found: ${parts[0]}/${parts[1]}`);
  }
  if (parts[3] === "database" && parts.length === 4 && method === "PATCH") {
    return updateSettingsHandler(state, index, request, caller);
  }
  if (parts[3] === "resources" && (parts.length === 4 || parts.length === 5)) {
    return resourceWriteHandler(state, index, parts[4], request, caller);
  }
  if (parts[3] === "import" && parts.length === 4 && method === "POST") {
    return importHandler(state, index, request, caller);
  }
  if (parts[3] === "uploads" && parts.length === 4 && method === "POST") {
    return issueUploadHandler(state, index, request, caller);
  }
  return undefined;
}
