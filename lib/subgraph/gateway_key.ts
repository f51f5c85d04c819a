/**
 * The Graph gateway puts its API key in the URL path
 * (`https://gateway.thegraph.com/api/<key>/subgraphs/id/<id>`), where no
 * query-parameter rule sees it; registering it keeps it out of provenance,
 * errors, cache files and recordings.
 *
 * @module
 */

import { registerSecret } from "../errors/redact.ts";

/** `/api/<key>/subgraphs/...` or `/api/<key>/deployments/...`, the gateway's two forms. */
export const GATEWAY_KEY_PATH = /\/api\/([^/?#]+)\/(?:subgraphs|deployments)\//i;

/**
 * Registers the gateway API key held in a subgraph URL's path, if any.
 *
 * @param url A subgraph endpoint, any form.
 */
export function registerGatewayKey(url: string): void {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return;
  }
  const key = GATEWAY_KEY_PATH.exec(path)?.[1];
  if (key) registerSecret(decodeURIComponent(key));
}
