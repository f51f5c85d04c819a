/**
 * The identity-provider endpoints: POST /api/me/keys issues an API key
 * from an ID token (the secret is returned once; only its SHA-256 is
 * kept), and GET, POST, DELETE /api/me/domains manage custom domains of
 * public databases (a platform subdomain is active at once; an external
 * domain returns the CNAME and TXT records to set, then `verify: true`
 * activates it once the TXT record is published). The sandbox's ID tokens
 * are {@linkcode SANDBOX_ID_TOKENS}, sent as `Authorization: Bearer`.
 *
 * @module
 */

import { saveSnapshot } from "./_persist.ts";
import { type ArchiveState, errorResponse, json } from "./_state.ts";
import { SANDBOX_ID_TOKENS, type SeedDomain, sha256Hex } from "./seed.ts";

/** The platform's own domain, under which subdomains are served at once. */
export const PLATFORM_DOMAIN = "tidepool-archive.app";

/** The account of the identity-provider session a request carries, if any. */
export function sessionAccount(request: Request): string | undefined {
  const token = /^Bearer\s+(\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return Object.entries(SANDBOX_ID_TOKENS).find(([, t]) => t === token)?.[0];
}

function randomText(bytes: number): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) =>
    alphabet[b % alphabet.length]
  )
    .join("");
}

/** POST /api/me/keys */
export async function issueKeyHandler(state: ArchiveState, request: Request): Promise<Response> {
  const account = sessionAccount(request);
  if (!account) return errorResponse(401, "A valid identity-provider ID token is required");
  const input = await request.json().catch(() => ({})) as { scopes?: unknown };
  const scopes = Array.isArray(input.scopes) ? input.scopes.map(String) : ["read", "write"];
  if (scopes.length === 0 || scopes.some((s) => s !== "read" && s !== "write")) {
    return errorResponse(400, "scopes must be read and/or write");
  }
  const publicId = `tpk_${randomText(10)}`;
  const secret = `sk-${randomText(24)}`;
  state.keys.push({
    publicId,
    secretSha256: await sha256Hex(secret),
    account,
    scopes: scopes as ("read" | "write")[],
    admin: false,
  });
  await saveSnapshot(state);
  const key = `${publicId}.${secret}`;
  switch (state.shapes.keyAnswer) {
    case "string":
      return json(key, 201);
    case "api_key":
      return json({ api_key: key, ...state.shapes.extraFields }, 201);
    default:
      return json({ key, public_id: publicId, account, scopes }, 201);
  }
}

/**
 * The database a new host serves: the spec's POST carries only `{host}`, so
 * the sandbox picks the account's public database named by the host's first
 * label, else its first public database.
 */
function databaseForHost(state: ArchiveState, account: string, host: string) {
  const label = host.split(".")[0];
  const own = [...state.databases.values()].filter((i) =>
    i.db.account === account && i.db.is_public
  );
  return own.find((i) => i.db.slug === label) ?? own[0];
}

/** GET, POST, DELETE /api/me/domains */
export async function domainsHandler(state: ArchiveState, request: Request): Promise<Response> {
  const account = sessionAccount(request);
  if (!account) return errorResponse(401, "An identity-provider session is required");
  const domains = state.seed.domains ??= [];
  if (request.method === "GET") {
    return json({ domains: domains.filter((d) => d.account === account) });
  }
  const input = await request.json().catch(() => ({})) as Record<string, unknown>;
  // The spec's bodies are {host} and {host, verify: true}; nothing else.
  const unknown = Object.keys(input).filter((key) => key !== "host" && key !== "verify");
  if (unknown.length > 0) return errorResponse(400, `Unknown field: ${unknown.join(", ")}`);
  const host = String(input.host ?? "").toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host)) {
    return errorResponse(400, `Invalid host: ${host}`);
  }
  const existing = domains.find((d) => d.host === host);
  if (existing && existing.account !== account) return errorResponse(409, `Domain in use: ${host}`);
  if (request.method === "DELETE") {
    if (!existing) return errorResponse(404, `Domain not found: ${host}`);
    domains.splice(domains.indexOf(existing), 1);
    await saveSnapshot(state);
    // The DELETE's answer is not shown in the spec: the shapes seed picks one.
    return state.shapes.domainDeleteAnswer === "domain"
      ? json(existing)
      : new Response(null, { status: 204 });
  }
  if (request.method !== "POST") return errorResponse(405, `${request.method} is not allowed here`);
  if (input.verify === true) {
    if (!existing) return errorResponse(404, `Domain not found: ${host}: add it first`);
    if (existing.status === "pending" && state.dns.has(existing.records[1].value)) {
      existing.status = "active";
      await saveSnapshot(state);
    }
    return json(existing);
  }
  if (existing) return errorResponse(409, `Domain exists: ${host}`);
  const index = databaseForHost(state, account, host);
  if (!index) return errorResponse(404, `No public database of ${account} to serve ${host}`);
  const database = `${index.db.account}/${index.db.slug}`;
  const subdomain = host.endsWith(`.${PLATFORM_DOMAIN}`);
  const domain: SeedDomain = {
    host,
    account,
    database,
    kind: subdomain ? "subdomain" : "external",
    status: subdomain ? "active" : "pending",
    records: subdomain ? [] : [
      { type: "CNAME", name: host, value: `sites.${PLATFORM_DOMAIN}` },
      { type: "TXT", name: `_archive-verify.${host}`, value: `archive-verify=${randomText(20)}` },
    ],
  };
  domains.push(domain);
  await saveSnapshot(state);
  return json(domain, 201);
}
