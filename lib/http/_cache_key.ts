/**
 * The cache key of a request: it keeps every part of the request, so two
 * requests that differ anywhere are two recordings, and holds no secret.
 *
 * - A query parameter holding a registered secret (the user's API key) is
 *   left out: it says who asks, not what, and a co-author replaying with
 *   their own key finds the answers. So is a parameter named like a
 *   credential whose value has the shape of a key (16 or more key
 *   characters mixing letters and digits, as in `?api-key=q7Kx2vN9pL4mR8sT1wY6`):
 *   it is registered as a secret from then on, so no answer echoing it is
 *   stored with it.
 * - Any other parameter named like a credential (`key`, `token`, ...), such
 *   as `?key=maps`, is kept, as a keyed hash of its value, never in clear:
 *   it may say what is asked for. So is a parameter whose value holds a
 *   credential among other text (`?url=<a signed address>`,
 *   `?token=<key>:maps`): the value with the credential redacted is hashed,
 *   so two files are two keys and a replay with another credential finds
 *   its answers.
 *
 * The hash is PBKDF2-HMAC-SHA-256 (100,000 rounds) of the value, salted with
 * the parameter's name and the recording key: `TIDEPOOL_RECORDING_KEY` when
 * set (then the recording alone cannot be searched for the value; record and
 * replay must set the same one), else a fixed tidepool constant (any reader
 * of the paper replays it, and each guess costs 100,000 rounds). A real
 * secret is registered (`registerSecret`, `--api-key-env`) and never enters
 * a key at all. See docs/ASSUMPTIONS.md.
 *
 * @module
 */

import { redact, registerSecret } from "../errors/redact.ts";
import { isCredentialParam } from "./credentials_in_url.ts";

/** The variable that names the recording key; see the module documentation. */
export const RECORDING_KEY_VARIABLE = "TIDEPOOL_RECORDING_KEY";

const DEFAULT_RECORDING_KEY = "tidepool-recording-key/1";
const ROUNDS = 100_000;

const hashed = new Map<string, Promise<string>>();

function recordingKey(): string {
  try {
    const key = Deno.env.get(RECORDING_KEY_VARIABLE);
    if (key) registerSecret(key); // it guards the hashed values: never shown
    return key || DEFAULT_RECORDING_KEY;
  } catch {
    // Without permission to read it, the variable is unset for this process.
    return DEFAULT_RECORDING_KEY;
  }
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether a credential-named value has the shape of a key rather than of a name. */
function keyShaped(value: string): boolean {
  return /^[A-Za-z0-9._~+/=-]{16,}$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** The keyed hash a credential-named value enters a key as. */
function keyedHash(name: string, value: string): Promise<string> {
  const key = recordingKey();
  const memo = `${key}\n${name}\n${value}`;
  let found = hashed.get(memo);
  if (!found) {
    found = (async () => {
      const encoder = new TextEncoder();
      const material = await crypto.subtle.importKey(
        "raw",
        encoder.encode(value),
        "PBKDF2",
        false,
        ["deriveBits"],
      );
      const bits = await crypto.subtle.deriveBits(
        {
          name: "PBKDF2",
          hash: "SHA-256",
          salt: encoder.encode(`${key}\n${name.toLowerCase()}`),
          iterations: ROUNDS,
        },
        material,
        128,
      );
      return `hashed-${hex(bits)}`;
    })();
    hashed.set(memo, found);
  }
  return found;
}

/**
 * The URL as it enters a key: user information and fragment removed,
 * parameters holding a registered secret removed, credential-named ones
 * replaced by their keyed hash, the rest as given, sorted by name; registered
 * secrets in the path (a gateway's `/api/<key>/`) redacted.
 *
 * @param url An absolute URL.
 * @returns The URL a key and a recording file name.
 *
 * @example
 * ```ts
 * const url = await keyUrl("https://x.example/oai?key=maps&verb=ListSets");
 * console.log(url.includes("maps")); // false: the key's value is hashed
 * ```
 */
export async function keyUrl(url: string): Promise<string> {
  const parsed = new URL(url);
  parsed.pathname = redact(parsed.pathname);
  const kept: [string, string][] = [];
  for (const [name, value] of parsed.searchParams) {
    if (!isCredentialParam(name, value)) {
      kept.push([name, value]);
      continue;
    }
    // A key says who asks; another credential-named value says what is asked.
    if (keyShaped(value)) {
      registerSecret(value);
      continue;
    }
    // A value holding a credential (a signed address, `<key>:maps`) says what is asked around it:
    // that part is kept, hashed; a value that is a secret whole says who asks and is left out.
    const rest = redact(value);
    if (rest !== "[redacted]") kept.push([name, await keyedHash(name, rest)]);
  }
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  parsed.search = new URLSearchParams(kept).toString();
  parsed.username = "";
  parsed.password = "";
  parsed.hash = "";
  return parsed.toString();
}

/** A request as the response cache sees it. */
export interface CacheRequest {
  /** The HTTP method. */
  method: string;
  /** The absolute URL. */
  url: string;
  /** The body as the cache sees it, if any. */
  body?: string;
}

/**
 * The key of a request: SHA-256 of the method, {@linkcode keyUrl} and the body.
 *
 * @param request `method`, the absolute `url` and the `body` as the cache sees it, if any.
 * @returns 64 hex digits.
 *
 * @example
 * ```ts
 * console.log((await cacheKey({ method: "GET", url: "https://x.example/a?key=maps" })).length); // 64
 * ```
 */
export async function cacheKey({ method, url, body }: CacheRequest): Promise<string> {
  const text = `${method.toUpperCase()} ${await keyUrl(url)}\n${body ?? ""}`;
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}
