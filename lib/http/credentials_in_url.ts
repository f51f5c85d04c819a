/**
 * The credentials a URL can carry, told from the rest of it: its user
 * information, query parameters named for a credential (or holding a
 * registered secret), and registered secrets in its path. A cache key and a
 * mirror's record of a location keep the rest, never those.
 *
 * @module
 */

import { redact } from "../errors/redact.ts";

/** Query parameters that carry credentials by their name. */
const CREDENTIAL_PARAMS =
  /^(signature|sig|nonce|token|access_token|access-token|apikey|api_key|api-key|x-api-key|key|auth|secret|password)$/i;

/**
 * Whether a query parameter carries a credential: by its name, or because
 * its value holds a registered secret (a repository's `wskey`).
 *
 * @param name The parameter's name.
 * @param value Its value.
 * @returns True when the parameter is a credential.
 *
 * @example Telling a key from a filter
 * ```ts
 * console.log(isCredentialParam("api-key", "x"), isCredentialParam("set", "maps")); // true false
 * ```
 */
export function isCredentialParam(name: string, value: string): boolean {
  return CREDENTIAL_PARAMS.test(name) || redact(value) !== value;
}

/**
 * A URL without its credentials: no user information, no credential query
 * parameters, registered secrets in the path redacted, no fragment. A URL
 * that carries none comes back as the URL parser writes it (`href`), its
 * other parameters in their order, so it names the same resource run after
 * run.
 *
 * @param url An absolute URL.
 * @returns The URL without credentials.
 *
 * @example A location a gateway named with the key it was asked with
 * ```ts
 * console.log(withoutCredentials("https://u:pw@x.example/a.txt?v=2&api-key=k"));
 * // https://x.example/a.txt?v=2
 * ```
 */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  parsed.hash = "";
  parsed.pathname = redact(parsed.pathname);
  const params = [...parsed.searchParams];
  const kept = params.filter(([name, value]) => !isCredentialParam(name, value));
  if (kept.length < params.length) parsed.search = new URLSearchParams(kept).toString();
  return parsed.href;
}

/**
 * A URL given back the credentials of the URL it was listed by, on the same
 * origin only: the user information, and each credential parameter it lacks.
 * A location stored without its key is asked for with the key the source
 * was reached with, never sent to another host.
 *
 * @param url A URL without credentials (see {@linkcode withoutCredentials}).
 * @param source The URL whose credentials it takes (a capability list's).
 * @returns The URL with the source's credentials, or the URL itself on another origin.
 *
 * @example The key of a capability list given back to a location
 * ```ts
 * console.log(withCredentialsOf("https://x.example/a.txt", "https://x.example/cap.xml?api-key=k"));
 * // https://x.example/a.txt?api-key=k
 * ```
 */
export function withCredentialsOf(url: string, source: string): string {
  const parsed = new URL(url);
  const from = new URL(source);
  if (parsed.origin !== from.origin) return parsed.href;
  parsed.username = from.username;
  parsed.password = from.password;
  for (const [name, value] of from.searchParams) {
    if (isCredentialParam(name, value) && !parsed.searchParams.has(name)) {
      parsed.searchParams.append(name, value);
    }
  }
  return parsed.href;
}
