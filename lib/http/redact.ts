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

/** Query parameter and JSON field names whose values are always secret. */
const SECRET_NAMES =
  "signature|token|access_token|apikey|api_key|apiKey|secret|password|authorization|privateKey|private_key";

const PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer <token>
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // ?signature=...&token=...
  [
    new RegExp(`([?&](?:${SECRET_NAMES})=)[^&#\\s"']*`, "gi"),
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
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    if (/^0x[0-9a-fA-F]+$/.test(secret)) forms.add(secret.slice(2));
  }
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  secretPattern = new RegExp(alternatives.join("|"), "gi");
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
  let out = text;
  if (secretPattern) out = out.replace(secretPattern, REDACTED);
  for (const [pattern, replacement] of PATTERNS) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
