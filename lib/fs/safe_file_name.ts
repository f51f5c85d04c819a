/**
 * The one sanitiser every name chosen by a server or a caller goes through
 * before it becomes a file name: it stays in its folder, shows what it is
 * (no right-to-left override turning `gpj.exe` into `exe.jpg`), is not a
 * Windows device, and fits the 255-byte limit of common file systems.
 *
 * @module
 */

/**
 * The most UTF-8 bytes a name may have: 255 is the limit of ext4, APFS and
 * NTFS; 15 are left for the `-9999` a name that is taken gets, and for the
 * temporary name a download is written under first.
 */
export const MAX_NAME_BYTES = 240;

/**
 * Characters that change how a name reads without being seen: C0 and C1
 * controls (Cc), every format character (Cf: bidirectional marks,
 * embeddings, overrides and isolates, zero widths, the word joiner, the
 * byte-order mark, the soft hyphen, tag characters, interlinear annotation),
 * line and paragraph separators, variation selectors, the combining grapheme
 * joiner and the fillers that render as nothing (Hangul, Braille blank).
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u034f\u115f\u1160\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\u{e0100}-\u{e01ef}]/gu;

/** Windows devices, also with a superscript digit (`COM¹`), whatever follows the first dot. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Whether a name is a Windows device name: its part before the first dot,
 * without trailing spaces or dots (Windows ignores them), is `CON`, `PRN`,
 * `AUX`, `NUL`, `COM0`-`COM9`, `LPT0`-`LPT9` (or with ¹²³), `CONIN$`, `CONOUT$`.
 *
 * @param name A file name.
 * @returns True for a device name, which Windows opens as the device.
 *
 * @example
 * ```ts
 * console.log(isWindowsDevice("CON .txt"), isWindowsDevice("COM¹.txt"), isWindowsDevice("console.txt"));
 * // true true false
 * ```
 */
export function isWindowsDevice(name: string): boolean {
  const stem = name.split(".")[0].replace(/[ .]+$/, "");
  return WINDOWS_DEVICE.test(stem);
}

/** The first `max` UTF-8 bytes of a text, cut between characters. */
function cutToBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).byteLength <= max) return text;
  let out = "";
  let bytes = 0;
  for (const char of text) {
    const size = encoder.encode(char).byteLength;
    if (bytes + size > max) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * A name from a server or a caller made safe for one folder: path separators
 * and `..` cannot climb out (segments are joined with `_`); controls,
 * bidirectional and invisible characters and characters Windows refuses
 * (`<>:"|?*`) become `_`; a leading dot (a hidden file) is escaped; trailing
 * dots and spaces go; a Windows device name (`CON .txt`, `COM¹.txt`) gets a
 * leading `_`; and the name is cut to {@linkcode MAX_NAME_BYTES} UTF-8 bytes,
 * between characters, keeping a short extension. Nothing safe left: the fallback.
 *
 * @param name The name as given (anything; a non-string is taken as none).
 * @param fallback The name to use when nothing safe is left.
 * @returns A name that stays in its folder on every common file system.
 *
 * @example A server's hostile result names
 * ```ts
 * console.log(safeFileName("../../etc/passwd", "result")); // "etc_passwd"
 * console.log(safeFileName("invoice\u202Egpj.exe", "file")); // "invoice_gpj.exe"
 * console.log(safeFileName("CON .txt", "file")); // "_CON .txt"
 * ```
 */
export function safeFileName(name: unknown, fallback: string): string {
  const text = typeof name === "string" ? name.normalize("NFC") : "";
  const segments = text
    .replace(INVISIBLE, "_")
    .split(/[/\\]+/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== "" && !/^\.+$/.test(segment));
  let safe = segments.join("_")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/[. ]+$/, "");
  if (safe.startsWith(".")) safe = `_${safe.slice(1)}`;
  if (isWindowsDevice(safe)) safe = `_${safe}`;
  const dot = safe.lastIndexOf(".");
  const extension = dot > 0 && new TextEncoder().encode(safe.slice(dot)).byteLength <= 16
    ? safe.slice(dot)
    : "";
  const stem = extension ? safe.slice(0, dot) : safe;
  const extensionBytes = new TextEncoder().encode(extension).byteLength;
  const cut = cutToBytes(stem, MAX_NAME_BYTES - extensionBytes);
  if (cut !== stem) safe = cut.replace(/[. ]+$/, "") + extension;
  // The cut may leave a device name ("CON" + spaces + a tail, cut to "CON").
  if (isWindowsDevice(safe)) safe = `_${safe}`;
  return safe || fallback;
}
