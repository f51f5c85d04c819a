/**
 * The SHA-256 of bytes as 64 lowercase hex digits: how a bundle lists its
 * files and how tidepool records what it wrote at an output's name.
 *
 * @module
 */

/**
 * The SHA-256 of bytes, as lowercase hex.
 *
 * @param bytes The bytes.
 * @returns 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * console.log((await sha256Hex(new Uint8Array())).slice(0, 8)); // e3b0c442
 * ```
 */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
