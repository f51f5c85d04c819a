/**
 * Generates the expressions of the sandbox from a fixed seed: the same
 * records, in the same order, on every machine and every run.
 *
 * @module
 */

import { SeededRandom } from "../_random.ts";
import { CONTEXTS, EMOTION_VALENCE, PHRASE_WEIGHTS, PHRASES } from "./_phrases.ts";
import { SANDBOX_WORKS, type SandboxWork } from "./_works.ts";

/** An expression as the sandbox stores it: the wire fields plus the gender. */
export interface StoredExpression {
  /** Expression id. */
  id: string;
  /** Id of the work it comes from. */
  pid: string;
  /** Title of the work. */
  title: string;
  /** The expression as written. */
  surface: string;
  /** The sentence around it. */
  context: string;
  /** Emotion category. */
  emotion: string;
  /** Body part named. */
  body_part: string;
  /** Positive, negative or neutral. */
  valence: string;
  /** Intensity label. */
  intensity: string;
  /** Character the expression is about. */
  character: string;
  /** Pages it appears on. */
  pages: number[];
  /** Author of the work. */
  author?: string;
  /** Year of publication. */
  year?: number;
  /** Genre of the work. */
  genre?: string;
  /** Index-only field: filtered and faceted, not part of the Expression object. */
  gender: string;
  /** Position in the work, for page order. */
  position: number;
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const INTENSITIES = ["low", "medium", "high"];
const VALENCES = ["positive", "negative", "neutral", "ambiguous"];

/** The default seed of the sandbox data. */
export const DEFAULT_SEED = 20_240_417;

/** The weight of each phrase of PHRASES, in order. */
const PHRASE_WEIGHT_LIST = PHRASES.map(([phrase]) => PHRASE_WEIGHTS[phrase] ?? 1);

/**
 * Generates `count` expressions over the sandbox works.
 *
 * @param count How many expressions.
 * @param seed The seed.
 * @returns The expressions, in index order.
 */
export function seedExpressions(count: number, seed = DEFAULT_SEED): StoredExpression[] {
  const random = new SeededRandom(seed);
  // Longer works and famous ones get more expressions.
  const weights = SANDBOX_WORKS.map(() => 0.4 + random.next() * 1.6);
  const pageCounts = SANDBOX_WORKS.map(() => random.int(80, 420));
  const positions = SANDBOX_WORKS.map(() => 0);
  const indexes = SANDBOX_WORKS.map((_, i) => i);
  const out: StoredExpression[] = [];
  const ids = new Set<string>();
  for (let n = 0; n < count; n++) {
    const w = random.weighted(indexes, weights);
    const work: SandboxWork = SANDBOX_WORKS[w];
    const [phrase, bodyPart, emotion] = random.weighted(PHRASES, PHRASE_WEIGHT_LIST);
    const who = random.chance(0.06)
      ? { name: "人々", gender: "mixed" }
      : random.chance(0.03)
      ? { name: "誰か", gender: "unknown" }
      : random.pick(work.characters);
    const roll = random.next();
    const valence = roll < 0.84
      ? EMOTION_VALENCE[emotion]
      : VALENCES[Math.floor(random.next() * VALENCES.length)];
    const intensity = random.weighted(INTENSITIES, [3, 5, 2]);
    const page = random.int(3, pageCounts[w]);
    const pages = random.chance(0.1) ? [page, page + 1] : [page];
    let id: string;
    do {
      id = "";
      for (let i = 0; i < 20; i++) id += ID_ALPHABET[random.int(0, 63)];
    } while (ids.has(id));
    ids.add(id);
    const context = random.pick(CONTEXTS).replace("{c}", who.name).replace("{p}", phrase);
    const record: StoredExpression = {
      id,
      pid: work.pid,
      title: work.title,
      surface: phrase,
      context,
      emotion,
      body_part: bodyPart,
      valence,
      intensity,
      character: who.name,
      pages,
      gender: who.gender,
      position: page * 1000 + positions[w]++,
    };
    // About 3% of records lack the work metadata, as the index does for some.
    if (!random.chance(0.03)) {
      record.author = work.author;
      record.year = work.year;
      record.genre = work.genre;
    }
    out.push(record);
  }
  return out;
}
