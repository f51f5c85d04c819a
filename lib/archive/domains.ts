/**
 * GET, POST, DELETE /api/me/domains: custom domains of public databases.
 *
 * @module
 */

import { AuthError, TidepoolError } from "../errors/errors.ts";
import { type ArchiveContext, archiveError } from "./_context.ts";
import { answerJson } from "./_write.ts";
import type { HttpRequest } from "../http/client.ts";

/** A DNS record to set for an external domain. */
export interface DnsRecord {
  /** `CNAME` or `TXT`. */
  type: string;
  /** The record name. */
  name: string;
  /** Its value. */
  value: string;
}

/**
 * A custom domain. The spec names only `host` (and `verify`); the other
 * fields are read when the platform sends them.
 */
export interface CustomDomain {
  /** The host name. */
  host: string;
  /** `account/db` it serves, when the platform says. */
  database?: string;
  /** `subdomain` of the platform or `external`, when the platform says. */
  kind?: string;
  /** `active`, or `pending` until verified; `unknown` when the platform does not say. */
  status: string;
  /** The CNAME and TXT records to set (external domains). */
  records: DnsRecord[];
}

/**
 * Sends a request with the identity-provider session (the `session`
 * option): the spec puts /api/me/domains under that session, not under an
 * API key, and lets `scope=mine` take it. Never cached or retried.
 */
export async function sendWithSession(
  context: ArchiveContext,
  request: HttpRequest,
  needed = "to manage custom domains",
) {
  const token = context.session;
  if (!token) {
    throw new AuthError(`An identity-provider session is needed ${needed}`, {
      status: 401,
      method: request.method ?? "GET",
      url: context.http.url(request.path).toString(),
      hint: 'Pass session: "<ID token>" to the Archive constructor',
    });
  }
  try {
    return await context.http.request({
      ...request,
      headers: { authorization: `Bearer ${token}` },
      sensitive: true,
      cacheable: false,
    });
  } catch (error) {
    throw archiveError(error, true);
  }
}

/** The body of {@linkcode Archive.domains}, on the archive's shared state; documented there. */
export async function domains(context: ArchiveContext): Promise<CustomDomain[]> {
  const body = (await sendWithSession(context, { path: "/api/me/domains" })).json<unknown>();
  const list = Array.isArray(body) ? body : isRecord(body) ? body.domains ?? body.data : [];
  return (Array.isArray(list) ? list : []).filter(isRecord).map((raw) =>
    toDomain(raw, String(raw.host ?? ""))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a domain answer (its shape beyond `host` is not shown): the domain, `{domain}`, or empty. */
function toDomain(raw: unknown, host: string): CustomDomain {
  const body = isRecord(raw) && isRecord(raw.domain) ? raw.domain : raw;
  const record = isRecord(body) ? body : {};
  const records = Array.isArray(record.records) ? record.records.filter(isRecord) : [];
  const text = (value: unknown) => typeof value === "string" ? value : undefined;
  return {
    host: text(record.host) ?? host,
    database: text(record.database),
    kind: text(record.kind),
    status: text(record.status) ?? "unknown",
    records: records.map((r) => ({
      type: String(r.type ?? ""),
      name: String(r.name ?? ""),
      value: String(r.value ?? ""),
    })),
  };
}

/** The body of {@linkcode Archive.addDomain}, on the archive's shared state; documented there. */
export async function addDomain(context: ArchiveContext, host: string): Promise<CustomDomain> {
  const response = await sendWithSession(context, {
    method: "POST",
    path: "/api/me/domains",
    json: { host },
    idempotent: false,
  });
  return toDomain(answerJson(response), host);
}

/** The body of {@linkcode Archive.verifyDomain}, on the archive's shared state; documented there. */
export async function verifyDomain(context: ArchiveContext, host: string): Promise<CustomDomain> {
  const response = await sendWithSession(context, {
    method: "POST",
    path: "/api/me/domains",
    json: { host, verify: true },
    idempotent: false,
  });
  const domain = toDomain(answerJson(response), host);
  if (domain.status !== "active") {
    const records = domain.records.map((r) => `${r.type} ${r.name} = ${r.value}`).join(" and ");
    context.http.warn(
      `Domain ${host} is not verified yet (status ${domain.status}): ${
        records ? `set ${records}` : "set the CNAME and TXT records the platform gave"
      }, then verify again`,
    );
  }
  return domain;
}

/** The body of {@linkcode Archive.removeDomain}, on the archive's shared state; documented there. */
export async function removeDomain(context: ArchiveContext, host: string): Promise<void> {
  if (typeof host !== "string" || host.trim() === "") {
    throw new TidepoolError("Cannot remove a domain: no host name given", {
      hint: 'Give the host as added, e.g. "letters.example.org"',
    });
  }
  // The DELETE carries `{host}` as POST does; its answer is not shown in the spec.
  await sendWithSession(context, {
    method: "DELETE",
    path: "/api/me/domains",
    json: { host },
    idempotent: false,
  });
}
