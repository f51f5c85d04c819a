/**
 * The ids a read has handed on, for skipping the rows a shifting order sends
 * twice. A hash table with open addressing in typed arrays: the slots hold
 * the position of an id in the list of ids, and its 30-bit hash beside it.
 * The garbage collector never traces typed arrays, and a lookup costs a hash
 * and one or two slot reads. A `Set` of 200,000 fresh strings was the
 * client's largest own cost in a whole read; a `Map` of small integers keyed
 * by the hash took 160 to 190 ms for 200,000 ids added between page parses,
 * this table 85 to 130 ms. The id itself is kept and compared, so two ids
 * that share a hash are both kept.
 *
 * @module
 */

/** FNV-1a over the UTF-16 code units, cut to 30 bits (a small integer in V8). */
export function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}

/** Slots at the start; a power of two. */
const FIRST_SLOTS = 1024;

/** Ids seen, exactly. */
export class SeenIds {
  /**
   * Two numbers a slot: the id's position in `#ids` plus one (0 marks an
   * empty slot), then its hash, compared before the id itself. Side by side,
   * a lookup touches one cache line.
   */
  #table: Int32Array = new Int32Array(FIRST_SLOTS * 2);
  readonly #ids: string[] = [];

  /** How many different ids were added. */
  get size(): number {
    return this.#ids.length;
  }

  /** Adds an id; false when it was added before. */
  add(id: string): boolean {
    const hash = idHash(id);
    const table = this.#table;
    const mask = (table.length >> 1) - 1;
    let slot = spread(hash) & mask;
    for (let at = table[slot * 2]; at !== 0; at = table[slot * 2]) {
      if (table[slot * 2 + 1] === hash && this.#ids[at - 1] === id) return false;
      slot = (slot + 1) & mask;
    }
    this.#ids.push(id);
    table[slot * 2] = this.#ids.length;
    table[slot * 2 + 1] = hash;
    // At most half full, so a probe ends after a slot or two on average.
    if (this.#ids.length * 4 > table.length) this.#table = grown(table);
    return true;
  }
}

/** FNV-1a's low bits depend only on the low bits of the input: mix the high ones down. */
function spread(hash: number): number {
  return hash ^ (hash >>> 15);
}

/** A table of twice the slots, each id placed again by its stored hash. */
function grown(table: Int32Array): Int32Array {
  const next = new Int32Array(table.length * 2);
  const mask = (next.length >> 1) - 1;
  for (let old = 0; old < table.length; old += 2) {
    if (table[old] === 0) continue;
    let slot = spread(table[old + 1]) & mask;
    while (next[slot * 2] !== 0) slot = (slot + 1) & mask;
    next[slot * 2] = table[old];
    next[slot * 2 + 1] = table[old + 1];
  }
  return next;
}
