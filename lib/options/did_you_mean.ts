/**
 * The names a mistyped one was probably meant to be: the close known names
 * by edit distance (insertions, deletions, replacements and swaps of
 * neighbours), for "did you mean" in the errors of options, databases and
 * filters.
 *
 * @module
 */

/** Edits (insert, delete, replace, swap of neighbours) between two names. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/**
 * The known names close enough to a typed one to be what was meant: those
 * at the smallest distance, when it is small for the name's length. Only the
 * closest, so "tag" gets "tags" and not also "raw", two edits away.
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(typed.length / 3));
  const close = known
    .map((name) => ({ name, distance: editDistance(typed.toLowerCase(), name.toLowerCase()) }))
    .filter(({ distance }) => distance <= limit);
  const nearest = Math.min(...close.map(({ distance }) => distance));
  return close
    .filter(({ distance }) => distance === nearest)
    .map(({ name }) => name)
    .sort((a, b) => a.localeCompare(b));
}

/** `; did you mean "a" or "b"?` for the close names, or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const close = closestNames(typed, known);
  return close.length ? `; did you mean ${close.map((name) => `"${name}"`).join(" or ")}?` : "";
}
