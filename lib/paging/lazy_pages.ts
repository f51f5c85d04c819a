/**
 * A page generator whose code loads on its first page: a client hands out
 * its generator at once, while the module that walks the pages is imported
 * only when the caller starts reading (bench/import_bench.ts).
 *
 * @module
 */

/**
 * Yields every value of the generator `load` resolves to, and returns what it
 * returns; `load` runs on the first `next()`, as the body of an async
 * generator would.
 *
 * @param load Loads the walk's code and starts it.
 * @returns A generator over the walk's values.
 *
 * @example Handing out a walk whose code is not loaded yet
 * ```ts
 * // In tidepool `load` imports the walk's module; here the walk is written inline.
 * async function* walk(rows: number[]) {
 *   for (const row of rows) yield [row];
 * }
 * const pages = lazyPages(async () => walk([1, 2, 3]));
 * for await (const page of pages) console.log(page.length);
 * ```
 */
export async function* lazyPages<T, TReturn = void>(
  load: () => Promise<AsyncGenerator<T, TReturn>>,
): AsyncGenerator<T, TReturn, undefined> {
  return yield* await load();
}
