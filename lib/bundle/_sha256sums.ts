/**
 * `SHA256SUMS`: the SHA-256 of every other file of a bundle, in the format
 * GNU `sha256sum` writes and `sha256sum -c SHA256SUMS` checks, so a reader
 * can check the files on any machine without tidepool. Written last (it
 * covers `ro-crate-metadata.json` too), so the RO-Crate does not list it.
 *
 * @module
 */

/** The file's name in the bundle. */
export const SHA256SUMS = "SHA256SUMS";

/** The most bytes a bundle's `SHA256SUMS` may have before verify refuses to read it. */
export const SHA256SUMS_LIMIT = 4 * 1024 * 1024;

/**
 * The text of `SHA256SUMS`: one `<hex>  <name>` line per file, by name.
 *
 * @param files Each file's name and SHA-256.
 * @returns The text, ending with a newline.
 */
export function sha256sumsText(
  files: readonly { readonly path: string; readonly sha256: string }[],
): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.map((file) => `${file.sha256}  ${file.path}\n`).join("");
}

/** One line of `SHA256SUMS` as read: a name and its hash, or why the line is not one. */
export type SumLine = { name: string; sha256: string } | { line: number; problem: string };

/**
 * The lines of a `SHA256SUMS` text (text mode `  ` or binary mode ` *`).
 *
 * @param text The file's text.
 * @returns Each line read, in order.
 */
export function parseSha256sums(text: string): SumLine[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, index) => {
    const match = line.match(/^([0-9a-f]{64}) [ *](.+)$/);
    return match
      ? { name: match[2], sha256: match[1] }
      : { line: index + 1, problem: "is not `<SHA-256>  <file>`" };
  });
}
