/**
 * What the one-function files behind {@linkcode Subgraph} share: the HTTP
 * client, the endpoint and the staleness settings.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";

/** The state a Subgraph hands to its helpers. */
export interface SubgraphContext {
  /** The HTTP client (retries, pacing, progress, warnings). */
  http: HttpClient;
  /** The endpoint, `…/subgraphs/name/<owner>/<name>`. */
  url: string;
  /** The subgraph's first block; below it the subgraph holds nothing. */
  startBlock: number;
  /** When set, a stale answer is an error instead of a warning. */
  minBlock?: number;
  /** Sends one query and returns its data. */
  send(
    document: string,
    variables?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
}
