/**
 * The sandbox's key check: `Authorization: Bearer <public_id>.<secret>`,
 * compared by SHA-256 hash against the key table (no secret is stored).
 *
 * @module
 */

import type { ArchiveState, Caller } from "./_state.ts";
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
