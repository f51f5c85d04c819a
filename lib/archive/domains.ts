/**
 * GET, POST /api/me/domains: custom domains of public databases.
 *
 * @module
 */

import { AuthError } from "../http/errors.ts";
import { type ArchiveContext, archiveError, requireTarget } from "./_context.ts";
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

/** A custom domain. */
export interface CustomDomain {
  /** The host name. */
  host: string;
  /** `account/db` it serves. */
  database: string;
  /** `subdomain` of the platform or `external`. */
  kind: string;
  /** `active`, or `pending` until verified. */
  status: string;
  /** The CNAME and TXT records to set (external domains). */
  records: DnsRecord[];
}

/**
 * Sends a domain request with the identity-provider session (the
 * `session` option), falling back to the API key.
 */
async function sendDomain(context: ArchiveContext, request: HttpRequest) {
  const token = context.session ?? context.apiKey;
  if (!token) {
    throw new AuthError("An identity-provider session is needed to manage custom domains", {
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

/**
 * The custom domains of the signed-in account.
 *
 * @param context The archive's shared state.
 * @returns The domains.
 *
 * @example List
 * ```ts ignore
 * for (const d of await archive.domains()) console.log(d.host, d.status);
 * ```
 */
export async function domains(context: ArchiveContext): Promise<CustomDomain[]> {
  const response = await sendDomain(context, { path: "/api/me/domains" });
  return response.json<{ domains: CustomDomain[] }>().domains;
}

/**
 * Adds a custom domain for the Archive's (public) database. A platform
 * subdomain is active at once; an external one returns the CNAME and TXT
 * records to set before {@linkcode verifyDomain}.
 *
 * @param context The archive's shared state.
 * @param host The host name.
 * @returns The domain with its records.
 *
 * @example An external domain
 * ```ts ignore
 * const { records } = await archive.addDomain("letters.example.org");
 * ```
 */
export async function addDomain(context: ArchiveContext, host: string): Promise<CustomDomain> {
  const { account, db } = requireTarget(context, "addDomain");
  const response = await sendDomain(context, {
    method: "POST",
    path: "/api/me/domains",
    json: { host, database: `${account}/${db}` },
    idempotent: false,
  });
  return response.json<CustomDomain>();
}

/**
 * Asks the platform to check an external domain's DNS records and
 * activate it. Still `pending` means the records are not visible yet.
 *
 * @param context The archive's shared state.
 * @param host The host name.
 * @returns The domain, with its status and the records to set.
 *
 * @example Verify
 * ```ts ignore
 * const { status, records } = await archive.verifyDomain("letters.example.org");
 * ```
 */
export async function verifyDomain(context: ArchiveContext, host: string): Promise<CustomDomain> {
  const response = await sendDomain(context, {
    method: "POST",
    path: "/api/me/domains",
    json: { host, verify: true },
    idempotent: false,
  });
  const domain = response.json<CustomDomain>();
  if (domain.status !== "active") {
    context.http.warn(
      `Domain ${host} is not verified yet: set ${
        domain.records.map((r) => `${r.type} ${r.name} = ${r.value}`).join(" and ")
      }, then verify again`,
    );
  }
  return domain;
}
