/**
 * A recorded answer's body without the registered secrets, in whatever
 * encoding the server echoed them: UTF-8 text (whole and in pieces of a
 * key), any single-byte encoding that keeps ASCII (ISO-8859-1,
 * windows-1252), percent-encoded, UTF-16 (either byte order) and base64
 * (standard and URL alphabets, at any alignment). A body that holds none is
 * stored byte for byte; one that does is stored with each found form
 * replaced, even when that changes a binary body: a recording never holds a
 * key. Not covered (see docs/SAFETY.md): a secret split by line wrapping in
 * base64, or hidden by compression or encryption inside the body.
 *
 * @module
 */

import { redactSecrets, registeredSecrets } from "../errors/redact.ts";

const REDACTED = "[redacted]";

/** Bytes as a string of one character per byte (latin-1), and back. */
function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return out;
}

function fromLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/** UTF-16 code units of an ASCII text as one character per byte. */
function utf16(text: string, littleEndian: boolean): string {
  let out = "";
  for (const char of text) out += littleEndian ? `${char}\0` : `\0${char}`;
  return out;
}

/**
 * The runs of base64 that encode a secret wherever it starts in the encoded
 * bytes: for each of the three alignments, the characters made of the
 * secret's bytes alone (the edges mix in neighbouring bytes).
 */
function base64Cores(secret: string): string[] {
  const bytes = latin1(new TextEncoder().encode(secret));
  const cores: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const rest = bytes.slice(skip);
    const whole = rest.slice(0, rest.length - (rest.length % 3));
    if (whole.length < 6) continue; // shorter runs would match by chance
    const core = btoa(whole);
    cores.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return cores;
}

/** Replaces every occurrence of each form in a one-character-per-byte text. */
function replaceAll(text: string, forms: [string, string][]): string {
  let out = text;
  for (const [form, replacement] of forms) {
    if (form.length > 0 && out.includes(form)) out = out.split(form).join(replacement);
  }
  return out;
}

/**
 * The body as it may be stored in a recording: every registered secret, in
 * every form listed in the module documentation, replaced by `[redacted]`.
 *
 * @param body The body bytes as received.
 * @returns The same bytes when they hold no secret, else redacted bytes.
 *
 * @example An ISO-8859-1 answer echoing a registered key
 * ```ts
 * import { registerSecret } from "../errors/redact.ts";
 * registerSecret("key-0123456789abcdef");
 * const body = new Uint8Array([...new TextEncoder().encode("caf"), 0xe9, ...new TextEncoder().encode(" api_key=key-0123456789abcdef")]);
 * console.log(new TextDecoder("latin1").decode(recordableBody(body))); // "caf\xe9 api_key=[redacted]"
 * ```
 */
export function recordableBody(body: Uint8Array): Uint8Array {
  const secrets = registeredSecrets();
  if (secrets.length === 0 || body.length === 0) return body;
  let text: string;
  let changed: boolean;
  try {
    // UTF-8 text: redacted as text (whole secrets, encoded forms and pieces of keys).
    const utf8 = new TextDecoder("utf-8", { fatal: true }).decode(body);
    const clean = redactSecrets(utf8);
    changed = clean !== utf8;
    text = latin1(changed ? new TextEncoder().encode(clean) : body);
  } catch {
    // Not UTF-8: read one character per byte, which keeps ASCII where any
    // single-byte encoding puts it, so the same redaction finds the key.
    const bytes = latin1(body);
    text = redactSecrets(bytes);
    changed = text !== bytes;
  }
  const forms: [string, string][] = [];
  for (const secret of secrets) {
    if (!/^[\x20-\x7e]+$/.test(secret)) continue;
    for (const form of [secret, encodeURIComponent(secret)]) {
      forms.push([utf16(form, true), utf16(REDACTED, true)]);
      forms.push([utf16(form, false), utf16(REDACTED, false)]);
    }
    for (const core of base64Cores(secret)) forms.push([core, REDACTED]);
  }
  const out = replaceAll(text, forms);
  return changed || out !== text ? fromLatin1(out) : body;
}
