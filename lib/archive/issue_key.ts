/**
 * POST /api/me/keys: issues an API key from an identity-provider ID token.
 *
 * @module
 */

import { TidepoolError } from "../http/errors.ts";
import { registerSecret } from "../http/redact.ts";
import { type ArchiveContext, archiveError } from "./_context.ts";

/** An issued key. The secret is in `key` only, shown this once. */
export interface IssuedKey {
  /** The whole key `<public_id>.<secret>`: store it now; it is registered for redaction. */
  key: string;
  /** The public part. */
  publicId: string;
  /** The account it belongs to. */
  account: string;
  /** Its scopes. */
  scopes: string[];
}

/** The body of {@linkcode Archive.issueKey}, on the archive's shared state; documented there. */
export async function issueKey(
  context: ArchiveContext,
  idToken: string,
  options: { scopes?: ("read" | "write")[] } = {},
): Promise<IssuedKey> {
  if (!idToken || /\s/.test(idToken)) {
    throw new TidepoolError("Cannot issue a key: the ID token is empty or malformed", {
      hint: "Pass the identity-provider ID token of a signed-in user",
    });
  }
  registerSecret(idToken);
  let response;
  try {
    response = await context.http.request({
      method: "POST",
      path: "/api/me/keys",
      json: options.scopes ? { scopes: options.scopes } : {},
      headers: { authorization: `Bearer ${idToken}` },
      sensitive: true,
      idempotent: false,
    });
  } catch (error) {
    throw archiveError(error, true);
  }
  const body = response.json<
    { key: string; public_id: string; account: string; scopes: string[] }
  >();
  registerSecret(body.key);
  registerSecret(body.key.slice(body.key.indexOf(".") + 1));
  return { key: body.key, publicId: body.public_id, account: body.account, scopes: body.scopes };
}
