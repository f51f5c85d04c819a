/**
 * The keys a paged read has already handed on, each with the latest version
 * (a number: an OAI-PMH datestamp) it was handed on at: exact, and small
 * enough for millions of keys.
 *
 * The guarantee: {@linkcode SeenKeys.admit} answers false only for a key it
 * was given before at the same or a later version. Nothing is forgotten
 * (there is no window), and nothing is dropped on a hash collision: a hash
 * only says where to look; the key itself is compared.
 *
 * How it stays small: the latest keys sit in a plain map. Every
 * `blockSize` keys, between pages, the map is frozen into a block: its
 * keys and versions as deflated text (about 6 bytes a key for OAI
 * identifiers with datestamps in order). One hash table, split into
 * partitions that grow one at a time (so growing never doubles the
 * memory at once), maps a 42-bit hash of each frozen key to its block
 * (6 bytes a slot, about 10 bytes a key). A lookup inflates a block only
 * when the table holds the key's hash: once in millions of keys for a new
 * key; for a repeat, the block that holds it (the last one inflated is
 * kept, since repeats come in runs).
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

type Zlib = typeof import("node:zlib");

/** Options of {@linkcode SeenKeys}, for tests. */
export interface SeenKeysOptions {
  /** Keys held in the map before they are frozen into a block; default 8,192. */
  blockSize?: number;
  /**
   * The key hash, two 32-bit halves; tests pass a colliding one to check
   * that collisions are resolved by comparing keys.
   */
  hash?: (key: string) => [number, number];
}

/** One partition of the hash table: open addressing, linear probing, 0 marks an empty slot. */
interface Partition {
  hashes: Uint32Array;
  blocks: Uint16Array;
  count: number;
}

/** Partitions of the table, chosen by the second hash's high bits. */
const PARTITION_BITS = 10;
const MAX_LOAD = 0.75;
const MAX_BLOCKS = 0xffff;

/** zlib, loaded when the first block is frozen: short reads never pay for it. */
let zlibLoaded: Promise<Zlib> | undefined;

/** Keys handed on, exactly, in little memory; see the module documentation. */
export class SeenKeys {
  readonly #blockSize: number;
  readonly #hash: (key: string) => [number, number];
  #recent = new Map<string, number>();
  readonly #blocks: Uint8Array[] = [];
  readonly #partitions: Partition[] = Array.from(
    { length: 1 << PARTITION_BITS },
    () => ({ hashes: new Uint32Array(8), blocks: new Uint16Array(8), count: 0 }),
  );
  #zlib?: Zlib;
  /** The block inflated last, as a map; repeats tend to come from the same block. */
  #inflated?: { block: number; keys: Map<string, number> };
  #size = 0;

  constructor(options: SeenKeysOptions = {}) {
    this.#blockSize = Math.max(1, options.blockSize ?? 8_192);
    this.#hash = options.hash ?? hashKey;
  }

  /** Keys admitted so far (a key admitted again at a later version counts again). */
  get size(): number {
    return this.#size;
  }

  /** Bytes held for the frozen keys: their deflated text and the hash table. */
  get frozenBytes(): number {
    let bytes = 0;
    for (const block of this.#blocks) bytes += block.byteLength;
    for (const p of this.#partitions) bytes += p.hashes.byteLength + p.blocks.byteLength;
    return bytes;
  }

  /**
   * Records a key at a version, unless it was seen at the same or a later one.
   *
   * @param key The key (an OAI-PMH identifier).
   * @param version Its version (the datestamp in ms; -Infinity when it has none).
   * @returns true when the key is new or its version later than any seen: hand it on.
   */
  admit(key: string, version: number): boolean {
    const previous = this.#latest(key);
    if (previous !== undefined && version <= previous) return false;
    // A copy: a key cut from a page's text would keep the whole page alive.
    this.#recent.set(previous === undefined ? flatCopy(key) : key, version);
    this.#size++;
    return true;
  }

  /**
   * Whether a key was admitted, at any version; records nothing.
   *
   * @param key The key.
   * @returns true when it was admitted before.
   */
  has(key: string): boolean {
    return this.#latest(key) !== undefined;
  }

  /** Whether the map of the latest keys is due to be frozen; see {@linkcode compact}. */
  get due(): boolean {
    return this.#recent.size >= this.#blockSize;
  }

  /**
   * Freezes the latest keys into a block once enough have come. Called
   * between pages (it may load zlib, which is asynchronous); keys admitted
   * meanwhile only make the block larger.
   */
  async compact(): Promise<void> {
    if (!this.due) return;
    this.#zlib ??= await (zlibLoaded ??= import("node:zlib").catch((error) => {
      zlibLoaded = undefined;
      throw error;
    }));
    if (!this.due) return; // frozen by another call while zlib loaded
    if (this.#blocks.length === MAX_BLOCKS) {
      throw new TidepoolError(
        `Cannot track more than ${MAX_BLOCKS * this.#blockSize} records in one harvest`,
        { hint: "Harvest in smaller windows (from, until) or by set" },
      );
    }
    const block = this.#blocks.length;
    const recent = this.#recent;
    this.#recent = new Map();
    let text = "";
    let previous = 0;
    for (const [key, version] of recent) {
      // Length-prefixed, so a key may hold any character.
      text += `${key.length}:${key}${encodeVersion(version, previous)}\n`;
      previous = version;
      const [h1, h2] = this.#hashOf(key);
      insert(this.#partitions[h2 >>> (32 - PARTITION_BITS)], h1, block);
    }
    this.#blocks.push(new Uint8Array(this.#zlib.deflateRawSync(new TextEncoder().encode(text))));
  }

  /** The latest version a key was admitted at, or undefined. */
  #latest(key: string): number | undefined {
    const recent = this.#recent.get(key);
    if (recent !== undefined) return recent;
    if (this.#blocks.length === 0) return undefined;
    const [h1, h2] = this.#hashOf(key);
    const candidates = blocksOf(this.#partitions[h2 >>> (32 - PARTITION_BITS)], h1);
    // Newest first: a key admitted again at a later version sits in a later block.
    for (const block of candidates.sort((a, b) => b - a)) {
      const version = this.#inflate(block).get(key);
      if (version !== undefined) return version;
    }
    return undefined;
  }

  /** The key's hashes as the table holds them: the first never 0 (the empty slot). */
  #hashOf(key: string): [number, number] {
    const [h1, h2] = this.#hash(key);
    return [(h1 >>> 0) || 1, h2 >>> 0];
  }

  #inflate(block: number): Map<string, number> {
    if (this.#inflated?.block === block) return this.#inflated.keys;
    const text = new TextDecoder().decode(this.#zlib!.inflateRawSync(this.#blocks[block]));
    const keys = new Map<string, number>();
    let at = 0;
    let previous = 0;
    while (at < text.length) {
      const colon = text.indexOf(":", at);
      const end = colon + 1 + Number(text.slice(at, colon));
      const newline = text.indexOf("\n", end);
      previous = decodeVersion(text.slice(end, newline), previous);
      keys.set(text.slice(colon + 1, end), previous);
      at = newline + 1;
    }
    this.#inflated = { block, keys };
    return keys;
  }
}

/**
 * A version as text: the difference from the previous one in base 36,
 * in seconds when whole (datestamps mostly come in order, so differences
 * are short), else in ms after `.`, else the number itself after `=`.
 */
function encodeVersion(version: number, previous: number): string {
  const difference = version - previous;
  if (Number.isFinite(version) && Number.isFinite(previous)) {
    if (Number.isSafeInteger(difference / 1000)) return (difference / 1000).toString(36);
    if (Number.isSafeInteger(difference)) return `.${difference.toString(36)}`;
  }
  return `=${version}`;
}

function decodeVersion(text: string, previous: number): number {
  if (text[0] === "=") return Number(text.slice(1));
  if (text[0] === ".") return previous + parseInt(text.slice(1), 36);
  return previous + parseInt(text, 36) * 1000;
}

/** Two 32-bit hashes in one pass: FNV-1a and a multiplicative one, each finished by murmur3's mix. */
function hashKey(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x9e3779b1) ^ (b >>> 15);
  }
  return [mix(a), mix(b)];
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The first slot of a hash: its high bits scaled to the table. */
function slotOf(length: number, hash: number): number {
  return Math.floor((hash / 0x1_0000_0000) * length);
}

function insert(p: Partition, hash: number, block: number) {
  if (p.count + 1 > p.hashes.length * MAX_LOAD) grow(p);
  let slot = slotOf(p.hashes.length, hash);
  while (p.hashes[slot] !== 0) {
    if (p.hashes[slot] === hash && p.blocks[slot] === block) return;
    slot = slot + 1 === p.hashes.length ? 0 : slot + 1;
  }
  p.hashes[slot] = hash;
  p.blocks[slot] = block;
  p.count++;
}

/** One partition half as large again: the others keep their size. */
function grow(p: Partition) {
  const { hashes, blocks } = p;
  const length = Math.ceil(hashes.length * 1.5);
  p.hashes = new Uint32Array(length);
  p.blocks = new Uint16Array(length);
  p.count = 0;
  for (let i = 0; i < hashes.length; i++) if (hashes[i] !== 0) insert(p, hashes[i], blocks[i]);
}

/** The blocks whose keys include one with this hash. */
function blocksOf(p: Partition, hash: number): number[] {
  const found: number[] = [];
  let slot = slotOf(p.hashes.length, hash);
  while (p.hashes[slot] !== 0) {
    if (p.hashes[slot] === hash) found.push(p.blocks[slot]);
    slot = slot + 1 === p.hashes.length ? 0 : slot + 1;
  }
  return found;
}

/** A string with its own storage (V8 keeps a slice's whole parent string alive). */
function flatCopy(key: string): string {
  return (" " + key).slice(1);
}
