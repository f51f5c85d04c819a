/**
 * The sandbox's key check: `Authorization: Bearer <public_id>.<secret>`,
 * compared by SHA-256 hash against the key table (no secret is stored).
 *
 * @module
 */

import { type ArchiveState, type Caller, errorResponse } from "./_state.ts";
import { sha256Hex } from "./seed.ts";

/** The caller of a request, null when anonymous, "invalid" for a bad key. */
export async function callerOf(
  state: ArchiveState,
  request: Request,
): Promise<Caller | null | "invalid"> {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+([^.\s]+)\.(\S+)$/.exec(header);
  if (!match) return "invalid";
  const key = state.keys.find((k) => k.publicId === match[1]);
  if (!key) return "invalid";
  const hash = await sha256Hex(match[2]);
  if (hash !== key.secretSha256) return "invalid";
  return { account: key.account, scopes: key.scopes, admin: key.admin };
}

/** The refusal of a write to `account`, or undefined when the caller may write there. */
export function writeRefusal(caller: Caller | null, account: string): Response | undefined {
  if (!caller) {
    return errorResponse(401, "Authentication required: send an API key with write scope");
  }
  if (!caller.admin && caller.account !== account) {
    return errorResponse(403, `Forbidden: the key belongs to ${caller.account}, not ${account}`);
  }
  if (!caller.scopes.includes("write")) {
    return errorResponse(403, "Insufficient scope: write scope required");
  }
  return undefined;
}

/** The refusal of a private read of `account`, or undefined when the caller may read. */
export function readRefusal(caller: Caller | null, account: string): Response | undefined {
  if (!caller) {
    return errorResponse(401, "Authentication required: send an API key with read scope");
  }
  if (!caller.admin && (caller.account !== account || !caller.scopes.includes("read"))) {
    return errorResponse(403, "Insufficient scope: read scope on this account required");
  }
  return undefined;
}
