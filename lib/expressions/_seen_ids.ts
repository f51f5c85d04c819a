/**
 * The ids a read has handed on, for skipping the rows a shifting order sends
 * twice. Each id is filed under a 30-bit hash of it in a map of small
 * integers, which the garbage collector never traces: a `Set` of 200,000
 * fresh strings was the client's largest own cost in a whole read. The id
 * itself is kept and compared, so two ids that share a hash are both kept.
 *
 * @module
 */

/** FNV-1a over the UTF-16 code units, cut to 30 bits (a small integer in V8). */
export function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}

/** Ids seen, exactly. */
export class SeenIds {
  readonly #first = new Map<number, number>();
  readonly #ids: string[] = [];
  /** Ids whose hash an earlier, different id already had. */
  #collided?: Set<string>;

  /** How many different ids were added. */
  get size(): number {
    return this.#ids.length + (this.#collided?.size ?? 0);
  }

  /** Adds an id; false when it was added before. */
  add(id: string): boolean {
    const hash = idHash(id);
    const at = this.#first.get(hash);
    if (at === undefined) {
      this.#first.set(hash, this.#ids.length);
      this.#ids.push(id);
      return true;
    }
    if (this.#ids[at] === id) return false;
    this.#collided ??= new Set();
    const before = this.#collided.size;
    return this.#collided.add(id).size !== before;
  }
}
