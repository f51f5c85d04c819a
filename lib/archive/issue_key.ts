/**
 * POST /api/me/keys: issues an API key from an identity-provider ID token.
 *
 * @module
 */

import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { answerJson } from "./_write.ts";
import { registerSecret } from "../errors/redact.ts";
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
  // The answer's shape is not shown: the key may be the body itself or sit
  // under `key`, `api_key` or `apiKey`; what else is missing is derived.
  const body = answerJson(response);
  const record = typeof body === "object" && body !== null ? body as Record<string, unknown> : {};
  const found = [body, record.key, record.api_key, record.apiKey].find((value) =>
    typeof value === "string" && value.includes(".")
  ) as string | undefined;
  if (!found) {
    throw new ProtocolError("The platform issued a key in a shape tidepool does not know", {
      details: `fields: ${Object.keys(record).join(", ") || "(none)"}`,
      hint: "Issue the key from the dashboard and pass it as apiKey",
    });
  }
  registerSecret(found);
  registerSecret(found.slice(found.indexOf(".") + 1));
  const text = (value: unknown) => typeof value === "string" ? value : undefined;
  return {
    key: found,
    publicId: text(record.public_id) ?? text(record.publicId) ?? found.slice(0, found.indexOf(".")),
    account: text(record.account) ?? context.account ?? "",
    scopes: Array.isArray(record.scopes) ? record.scopes.map(String) : options.scopes ?? [],
  };
}
