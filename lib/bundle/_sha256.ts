/**
 * The SHA-256 of a file's bytes as the bundle's metadata writes it: 64
 * lowercase hex digits.
 *
 * @module
 */

export { sha256Hex } from "../fs/sha256_hex.ts";
