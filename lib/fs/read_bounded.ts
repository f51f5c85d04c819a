/**
 * Reading an input whose size nobody promised: a file the user names (which
 * may be `/dev/zero`, a FIFO or `/dev/stdin`) or standard input. At most
 * `limit` bytes are held; one byte more and the read stops with an error
 * saying the limit, so an endless input costs `limit` bytes of memory, not
 * all of it.
 *
 * @module
 */

/** An input larger than its stated limit. */
export class InputTooLargeError extends Error {
  /** The limit in bytes. */
  readonly limit: number;

  /**
   * @param what The input, in the caller's words (`the query file q.rq`).
   * @param limit The limit in bytes.
   */
  constructor(what: string, limit: number) {
    super(`${what} is larger than ${limit} bytes, the most tidepool reads`);
    this.name = "InputTooLargeError";
    this.limit = limit;
  }
}

/**
 * Reads a stream of bytes whole, within a limit.
 *
 * @param reader What to read (an open file, standard input).
 * @param limit The most bytes accepted.
 * @param what The input, for the error.
 * @returns The bytes.
 * @throws {InputTooLargeError} When the input holds more than `limit` bytes.
 *
 * @example
 * ```ts
 * using file = await Deno.open("deno.json");
 * const bytes = await readWithin(file, 1024 * 1024, "deno.json");
 * console.log(bytes.length > 0); // true
 * ```
 */
export async function readWithin(
  reader: { read(p: Uint8Array): Promise<number | null> },
  limit: number,
  what: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const read = await reader.read(buffer);
    if (read === null) break;
    total += read;
    if (total > limit) throw new InputTooLargeError(what, limit);
    chunks.push(buffer.slice(0, read));
  }
  const whole = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/**
 * Reads a file, or standard input for `-`, as UTF-8 text within a limit.
 *
 * @param path The file, or `-` for standard input.
 * @param limit The most bytes accepted.
 * @param what The input, for the error (default: the path).
 * @returns The text.
 * @throws {InputTooLargeError} When the input holds more than `limit` bytes.
 *
 * @example A query file of at most 1 MiB
 * ```ts
 * const text = await readTextWithin("deno.json", 1024 * 1024);
 * console.log(text.startsWith("{")); // true
 * ```
 */
export async function readTextWithin(path: string, limit: number, what = path): Promise<string> {
  if (path === "-") {
    return new TextDecoder().decode(await readWithin(Deno.stdin, limit, what));
  }
  using file = await Deno.open(path, { read: true });
  return new TextDecoder().decode(await readWithin(file, limit, what));
}
