/**
 * The state an {@linkcode ArchiveContext} holds, apart from the code that
 * sends requests with it, so the helpers the sender calls can read it.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";

/** When a request carries the API key. */
export type AuthMode = "auto" | "always" | "never";

/** A path prefix that moved, learnt from a 307 after a service switch. */
export interface MovedPath {
  /** The old path prefix, e.g. `/api/acme/dl/letters`. */
  from: string;
  /** The new path prefix, e.g. `/api/acme/records/letters`. */
  to: string;
}

/** The state an Archive hands to its helpers. */
export interface ArchiveContext {
  /** The HTTP client (retries, pacing, cache, progress, warnings). */
  http: HttpClient;
  /** The account slug. */
  account?: string;
  /** The database slug. */
  db?: string;
  /** The whole API key `<public_id>.<secret>`, when one was given. */
  apiKey?: string;
  /** An identity-provider session token (custom domains), when one was given. */
  session?: string;
  /** The key policy: `auto` sends the key only when a read needs it. */
  auth: AuthMode;
  /** The service (`dl`, `text`, `records`) of each database, as learnt or given. */
  services: Map<string, string>;
  /** Path prefixes that moved, in the order they were learnt. */
  moved: MovedPath[];
  /** Whether the accounts catalogue was read to check a database name. */
  catalogueRead?: boolean;
  /**
   * Reads the accounts catalogue into {@linkcode ArchiveContext.services}
   * (`Archive.databases`), handed in by the facade: the request sender
   * consults the catalogue when a database answers 404, and the catalogue
   * is read through that sender, so neither file imports the other.
   */
  readCatalogue?: (context: ArchiveContext, scope: "public" | "mine") => Promise<unknown>;
}
