/**
 * POST /api/services/auth/token of the sandbox node: a signed request
 * (`address`, `nonce`, `signature` over `createAuthToken`, ocean-node's
 * command) gets `{token}`; `validUntil` (Unix ms) limits it. Its request
 * and answer shapes are not shown in the spec; these are ocean-node's.
 *
 * @module
 */

import { type ComputeContext, json, jsonBody, text } from "./_context.ts";

/** POST /api/services/auth/token */
export async function authTokenHandler(
  context: ComputeContext,
  _url: URL,
  request: Request,
): Promise<Response> {
  const body = await jsonBody(request);
  if (!body) return json(400, { error: "Missing required parameters" });
  if (typeof body.address !== "string" || typeof body.signature !== "string") {
    return json(400, { error: "Missing required parameters" });
  }
  const check = await context.nonces.verify(
    { consumerAddress: body.address, nonce: body.nonce, signature: body.signature },
    "createAuthToken",
  );
  if (!check.ok) return text(check.status, check.text);
  const validUntil = body.validUntil === undefined || body.validUntil === null
    ? undefined
    : Number(body.validUntil);
  if (validUntil !== undefined && !Number.isFinite(validUntil)) {
    return json(400, { error: "validUntil must be Unix time in milliseconds" });
  }
  return json(200, { token: context.tokens.issue(body.address, validUntil, String(body.nonce)) });
}
