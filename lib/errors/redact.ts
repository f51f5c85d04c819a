/**
 * Redaction of secrets from any text tidepool shows or stores: errors, log
 * lines, progress, cache files. Secrets known by value (private keys, API key
 * secrets, bearer tokens) are registered by the code that holds them; shapes
 * that are always secret (signatures, bearer headers, credential query
 * parameters) are removed by pattern.
 *
 * @module
 */

const REDACTED = "[redacted]";
const secrets = new Set<string>();
let secretPattern: RegExp | undefined;
/** The length of the shortest piece of a key that is redacted on its own. */
const PART = 8;
/** Every `PART`-character piece (lower case) of the registered key-like secrets. */
const secretParts = new Set<string>();
/** Texts longer than this are searched for whole secrets only (a piece search costs a slice a character). */
const PART_SEARCH_LIMIT = 4 * 1024 * 1024;

/** Query parameter and JSON field names whose values are always secret. */
const SECRET_NAMES =
  "signature|token|access_token|apikey|api_key|apiKey|secret|password|authorization|privateKey|private_key";

/**
 * Query parameter names that carry credentials besides those: short names
 * services put keys in (`?key=`, `?api-key=`, `?sig=`), too common as JSON
 * field names to be redacted there.
 */
const QUERY_SECRET_NAMES = `${SECRET_NAMES}|sig|key|auth|api-key|x-api-key|access-token`;

const PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer <token>, Basic <user:password in base64>
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // https://user:password@host/: the whole user information, in any scheme
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${REDACTED}@`],
  // ?signature=...&token=...
  [
    new RegExp(`([?&](?:${QUERY_SECRET_NAMES})=)[^&#\\s"']*`, "gi"),
    `$1${REDACTED}`,
  ],
  // "signature": "..." in JSON text
  [
    new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*)"[^"]*"`, "gi"),
    `$1"${REDACTED}"`,
  ],
  // 65-byte ECDSA signatures: 0x followed by 130 hex digits
  [/0x[0-9a-fA-F]{130}\b/g, REDACTED],
];

/**
 * Registers a secret value so that {@linkcode redact} removes it from any
 * text, in plain and in URL-encoded form. Values shorter than 8 characters
 * are ignored, since removing them would mangle ordinary text.
 *
 * @param value The secret, such as a private key or an API key secret.
 *
 * @example Registering an API key secret
 * ```ts
 * registerSecret("s3cr3t-value-123");
 * console.log(redact("key=s3cr3t-value-123")); // "key=[redacted]"
 * ```
 */
export function registerSecret(value: string): void {
  if (value.length < 8 || secrets.has(value)) return;
  secrets.add(value);
  if (keyLike(value)) {
    // A server that echoes part of a key (its first 12 characters in an error) must not
    // make tidepool print that part: every piece of PART characters is redacted.
    const forms = [value, encodeURIComponent(value)];
    if (/^0x[0-9a-fA-F]+$/.test(value)) forms.push(value.slice(2));
    for (const form of forms) {
      const lower = form.toLowerCase();
      for (let i = 0; i + PART <= lower.length; i++) {
        const part = lower.slice(i, i + PART);
        // A run like "00000000" tells nothing of a key and is common in numbers.
        if (new Set(part).size >= 4) secretParts.add(part);
      }
    }
  }
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    if (/^0x[0-9a-fA-F]+$/.test(secret)) forms.add(secret.slice(2));
  }
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapedPattern);
  secretPattern = new RegExp(alternatives.join("|"), "gi");
}

/**
 * The registered secrets, for code that must find them in bytes other than
 * UTF-8 text (a recorded answer in latin-1 or UTF-16, a base64 body).
 *
 * @returns Every registered secret, longest first.
 *
 * @example
 * ```ts
 * registerSecret("s3cr3t-value-123");
 * console.log(registeredSecrets().includes("s3cr3t-value-123")); // true
 * ```
 */
export function registeredSecrets(): string[] {
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Removes every registered secret and every always-secret shape from text.
 *
 * @param text Any text that may be shown or stored.
 * @returns The text with secrets replaced by `[redacted]`.
 *
 * @example Redacting a bearer header
 * ```ts
 * console.log(redact("Authorization: Bearer abc.def")); // "Authorization: Bearer [redacted]"
 * ```
 */
export function redact(text: string): string {
  let out = redactSecrets(text);
  for (const [pattern, replacement] of PATTERNS) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * Removes the registered secrets from text, whole and in pieces of 8 or
 * more characters of a key (a private key, an API key, a token), but none
 * of the shapes {@linkcode redact} removes by pattern: for data that is
 * stored as it came, such as a recorded answer, where a field named `token`
 * is data but a key a server echoed back is not.
 *
 * @param text Any text.
 * @returns The text with registered secrets, and pieces of keys, replaced by `[redacted]`.
 *
 * @example A server echoing the start of a key
 * ```ts
 * registerSecret("k3y0-a1b2-c3d4-e5f6-0001");
 * console.log(redactSecrets("unknown key k3y0-a1b2-c3d4...")); // "unknown key [redacted]..."
 * ```
 */
export function redactSecrets(text: string): string {
  let out = secretPattern ? text.replace(secretPattern, REDACTED) : text;
  if (secretParts.size > 0 && out.length >= PART && out.length <= PART_SEARCH_LIMIT) {
    out = redactParts(out);
  }
  return out;
}

/** Replaces each run of text made of pieces of registered keys. */
function redactParts(text: string): string {
  let out = "";
  let kept = 0;
  for (let i = 0; i + PART <= text.length;) {
    if (!secretParts.has(text.slice(i, i + PART).toLowerCase())) {
      i++;
      continue;
    }
    let end = i + PART;
    while (
      end < text.length && secretParts.has(text.slice(end - PART + 1, end + 1).toLowerCase())
    ) {
      end++;
    }
    out += text.slice(kept, i) + REDACTED;
    kept = end;
    i = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * Whether a registered secret is a key, whose pieces are secret too: no
 * space and no path, and letters with digits, letters of both cases, or a
 * run of 20 or more (a key of letters only). A password of words or a URL
 * path registered as secret is redacted only whole, so that its pieces
 * (`/api/v1/`) do not mangle ordinary text.
 */
function keyLike(value: string): boolean {
  if (value.length < 12 || /[\s/]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // Letters with digits, or both cases, or a long run: keys made of letters only exist too.
  return /[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)) ||
    value.length >= 20;
}

/**
 * Whether a value given where a name, an address or a URL goes has the shape
 * of a secret: a private key (64 hex digits, with or without 0x), or a long
 * unbroken run of key characters mixing letters and digits (an API key, a
 * token). Such a value is described, never echoed, in an error about it.
 *
 * @param value A value from the caller.
 * @returns True when it should not be shown.
 *
 * @example A private key passed where a variable's name goes
 * ```ts
 * console.log(looksLikeSecret("0x" + "ab".repeat(32))); // true
 * console.log(looksLikeSecret("OCEAN_PRIVATE_KEY")); // false
 * ```
 */
export function looksLikeSecret(value: string): boolean {
  const text = value.trim();
  if (/^(?:0x)?[0-9a-f]{64}$/i.test(text)) return true;
  return /^[A-Za-z0-9_+/=.~-]{32,}$/.test(text) && /[0-9]/.test(text) && /[A-Za-z]/.test(text);
}

/**
 * A value from the caller as an error may show it: quoted and cut to `max`
 * characters, or, when it has the shape of a secret ({@linkcode looksLikeSecret}),
 * only its length.
 *
 * @param value Any value the caller passed.
 * @param max The most characters shown; default 60.
 * @returns Text to put in an error message.
 *
 * @example A private key given where an address goes
 * ```ts
 * console.log(showValue("0x" + "1f".repeat(32)));
 * // a string of 66 characters (not shown: it looks like a key)
 * ```
 */
export function showValue(value: unknown, max = 60): string {
  if (typeof value !== "string") return String(value).slice(0, max);
  if (looksLikeSecret(value)) {
    return `a string of ${value.length} characters (not shown: it looks like a key)`;
  }
  return JSON.stringify(value.length > max ? `${value.slice(0, max - 3)}...` : value);
}

/**
 * Registers the values of request headers that carry credentials
 * (`authorization`, `cookie`, `x-api-key`, any header named like a secret),
 * so that a server echoing one back cannot make tidepool print it.
 *
 * @param headers Request headers by name.
 *
 * @example A key sent in a header is never printed back
 * ```ts
 * registerHeaderSecrets({ "x-api-key": "k3y-in-a-header-0001" });
 * console.log(redact("you sent k3y-in-a-header-0001")); // "you sent [redacted]"
 * ```
 */
export function registerHeaderSecrets(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (
      typeof value !== "string" || !(/^(?:cookie|x-api-key)$/i.test(name) || isSecretName(name))
    ) {
      continue;
    }
    registerSecret(value.trim());
    // `Bearer <token>`, `Basic <base64>`, `Token <key>`: the credential itself.
    const credential = /^\S+\s+(\S+)$/.exec(value.trim())?.[1];
    if (credential) registerSecret(credential);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The named character references of HTML an escaper writes for ASCII punctuation. */
const HTML_NAMES: Record<string, string> = {
  "&": "amp",
  "<": "lt",
  ">": "gt",
  '"': "quot",
  "'": "apos",
  "/": "sol",
  "+": "plus",
  "=": "equals",
  ":": "colon",
  "%": "percnt",
};

/**
 * A secret as a pattern that finds it however a text format escaped its
 * punctuation, each character its own way: JSON (`\/`, `\u002F`) and HTML
 * references (`&#x2F;`, `&#47;`, `&sol;`), as a server echoing a key in an
 * error page or a JSON answer writes it.
 */
function escapedPattern(secret: string): string {
  return [...secret].map((char) => {
    if (/[A-Za-z0-9]/.test(char) || char.charCodeAt(0) > 0x7e) return escapeRegExp(char);
    const code = char.charCodeAt(0);
    const hex = code.toString(16);
    const named = HTML_NAMES[char] ? `|&${HTML_NAMES[char]};` : "";
    // A backslash before the character (JSON's \/), or its code point as \u, &#x or &#.
    const escaped = String.raw`\\${escapeRegExp(char)}|\\u0*${hex}`;
    return `(?:${escapeRegExp(char)}|${escaped}|&#x0*${hex};|&#0*${code};${named})`;
  }).join("");
}

/** Parameter names that are never kept as plumbing of a call. */
const PLUMBING_PARAMS = /^(?:nonce|signer|signal|progress|fetch|headers|warn|onPage)$/i;

/** Words that make any parameter name holding them secret (`clientSecret`, `x-password`). */
const SECRET_WORDS = new Set([
  "secret",
  "password",
  "passwd",
  "passphrase",
  "signature",
  "authorization",
  "bearer",
  "credential",
  "credentials",
  "mnemonic",
  "cookie",
  "apikey",
  "privatekey",
  "accesstoken",
]);

/**
 * Words that make `token` or `key` secret just before them (`accessToken`,
 * `api_key`). Elsewhere they name public things: an ERC-20 (`feeToken`,
 * `datatokenAddress`), a cursor (`resumptionToken`, `nextToken`), a public
 * or sort key; a bare `token` or `key` is taken as secret.
 */
const SECRET_QUALIFIERS = new Set([
  "access",
  "api",
  "auth",
  "bearer",
  "client",
  "csrf",
  "encryption",
  "id",
  "jwt",
  "master",
  "oauth",
  "private",
  "refresh",
  "secret",
  "security",
  "session",
  "signing",
  "subscription",
]);

/** Whether a parameter name names a secret, judged by its words (camelCase, `-`, `_`). */
function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  // The qualifier comes first: `idToken` is secret, an NFT's `tokenId` is not.
  return words.some((word, i) =>
    (word === "token" || word === "key") &&
    (words.length === 1 || SECRET_QUALIFIERS.has(words[i - 1]))
  );
}

/**
 * The parameters of a call as JSON values with secrets removed, for a
 * record of what produced a table: secret-named fields (keys, signatures,
 * tokens, passwords) and plumbing (signal, progress, fetch) are left out,
 * a signer becomes its address, dates become ISO 8601 text, bigints text,
 * and every string is {@linkcode redact}ed.
 *
 * @param params The parameters as the caller gave them.
 * @returns A JSON-serialisable copy without secrets.
 *
 * @example A keyed call's parameters
 * ```ts
 * console.log(redactParams({ q: "map", apiKey: "k-123456789", from: new Date(0) }));
 * // { q: "map", from: "1970-01-01T00:00:00.000Z" }
 * ```
 */
export function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  return redactValue(params, 0) as Record<string, unknown> ?? {};
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "string") return redact(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || depth > 8) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof URL) return redact(value.toString());
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1) ?? null);
  const record = value as Record<string, unknown>;
  // A signer (address and signMessage) stands for its wallet: the address is public.
  if (typeof record.signMessage === "function" && typeof record.address === "string") {
    return record.address;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(record)) {
    if (PLUMBING_PARAMS.test(name) || isSecretName(name)) continue;
    const kept = redactValue(item, depth + 1);
    if (kept !== undefined) out[name] = kept;
  }
  return out;
}
