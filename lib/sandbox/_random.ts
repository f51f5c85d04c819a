/**
 * A small seeded random generator (mulberry32) so that every sandbox
 * generates the same data on every machine and every run.
 *
 * @module
 */

/** Deterministic random numbers and choices from a 32-bit seed. */
export class SeededRandom {
  #state: number;

  /** @param seed Any integer; the same seed gives the same sequence. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One element, chosen with the given weights (same length as items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const sum = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * sum;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }

  /** `count` distinct elements, in random order (all of them if count is larger). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.min(count, copy.length));
  }

  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = "";
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, "0");
    return out;
  }

  /** true with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }
}
