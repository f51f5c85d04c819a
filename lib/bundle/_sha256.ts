/**
 * The SHA-256 of a file's bytes as the bundle's metadata writes it: 64
 * lowercase hex digits.
 *
 * @module
 */

/** The SHA-256 of bytes, as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
