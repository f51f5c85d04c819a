/**
 * The closed vocabularies of the expression search: emotion categories and
 * body parts. The spec does not list them ("not shown"), so the types name
 * the values known (the ten ML-Ask categories, the body parts of the
 * sandbox) for `deno check`, and at run time the lists the service itself
 * publishes in `/api/stats` decide; the known lists stand in only when the
 * service publishes none.
 *
 * @module
 */

import { UnknownValueError } from "../errors/errors.ts";

/**
 * The ten emotion categories of ML-Ask (Ptaszynski et al., after Nakamura's
 * dictionary of emotive expressions): 喜 joy, 怒 anger, 哀 sorrow, 怖 fear,
 * 恥 shame, 好 liking, 厭 dislike, 昂 excitement, 安 relief, 驚 surprise.
 *
 * @example Offering the categories in a notebook widget
 * ```ts
 * console.log(EMOTIONS.join(" ")); // 喜 怒 哀 怖 恥 好 厭 昂 安 驚
 * ```
 */
export const EMOTIONS = ["喜", "怒", "哀", "怖", "恥", "好", "厭", "昂", "安", "驚"] as const;

/**
 * The body parts known to tidepool. The service's own list (`stats()`) is
 * what a search is checked against at run time.
 *
 * @example Body parts of the face
 * ```ts
 * console.log(BODY_PARTS.filter((part) => ["目", "眉", "頬"].includes(part)));
 * ```
 */
export const BODY_PARTS = [
  "目",
  "眉",
  "口",
  "唇",
  "頬",
  "顔",
  "声",
  "息",
  "涙",
  "手",
  "肩",
  "胸",
] as const;

/**
 * An English gloss of each emotion category, and the words a newcomer may
 * try for it (`joy`, `happiness`), so that a search for them can be told
 * which category they mean.
 *
 * @example The gloss of 喜
 * ```ts
 * console.log(EMOTION_GLOSSES["喜"][0]); // "joy"
 * ```
 */
export const EMOTION_GLOSSES: Readonly<Record<Emotion, readonly string[]>> = {
  喜: ["joy", "happiness", "delight", "gladness", "pleasure"],
  怒: ["anger", "rage", "fury", "irritation"],
  哀: ["sorrow", "sadness", "grief", "gloom"],
  怖: ["fear", "fright", "dread", "terror", "anxiety"],
  恥: ["shame", "embarrassment", "shyness"],
  好: ["liking", "fondness", "love", "affection"],
  厭: ["dislike", "disgust", "aversion", "hatred"],
  昂: ["excitement", "agitation", "elation"],
  安: ["relief", "calm", "ease", "peace"],
  驚: ["surprise", "amazement", "astonishment", "shock"],
};

/**
 * The category a value not in the vocabulary most likely means: an English
 * word of {@linkcode EMOTION_GLOSSES} (`joy`), or Japanese text that holds
 * exactly one category's character (`喜び`, `怒り`).
 */
function meantEmotion(value: string, known: readonly string[]): string | undefined {
  const word = value.trim().toLowerCase();
  const byGloss = (Object.entries(EMOTION_GLOSSES) as [string, readonly string[]][])
    .find(([, words]) => words.includes(word))?.[0];
  if (byGloss && known.includes(byGloss)) return byGloss;
  const held = known.filter((category) => value.includes(category));
  return held.length === 1 ? held[0] : undefined;
}

/** A category with its gloss, `喜 (joy)`; a category tidepool does not know, as it is. */
function glossed(category: string): string {
  const gloss = EMOTION_GLOSSES[category as Emotion]?.[0];
  return gloss ? `${category} (${gloss})` : category;
}

/** An emotion category, one of {@linkcode EMOTIONS}. */
export type Emotion = typeof EMOTIONS[number];
/** A body part, one of {@linkcode BODY_PARTS}. */
export type BodyPart = typeof BODY_PARTS[number];

/** The lists a search is checked against. */
export interface Vocabulary {
  /** Emotion categories the service knows. */
  emotions: readonly string[];
  /** Body parts the service knows. */
  bodyParts: readonly string[];
}

/** The vocabulary when the service publishes none. */
export const KNOWN_VOCABULARY: Vocabulary = { emotions: EMOTIONS, bodyParts: BODY_PARTS };

function values(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
}

/**
 * Checks emotion and body part values against a vocabulary; an unknown value
 * would match nothing and answer an empty table, so it is an error that lists
 * the valid values.
 */
export function checkVocabulary(
  filters: { emotion?: unknown; bodyPart?: unknown },
  vocabulary: Vocabulary,
): void {
  const checks: [string, unknown, readonly string[], string][] = [
    ["emotion", filters.emotion, vocabulary.emotions, "emotion categories"],
    ["bodyPart", filters.bodyPart, vocabulary.bodyParts, "body parts"],
  ];
  for (const [name, given, known, what] of checks) {
    if (known.length === 0) continue;
    const unknown = values(given).find((value) => !known.includes(value));
    if (unknown === undefined) continue;
    const meant = name === "emotion" ? meantEmotion(unknown, known) : undefined;
    const listed = name === "emotion" ? known.map(glossed) : known;
    throw new UnknownValueError(
      `Cannot search expressions: ${name} "${unknown}" is not one of the service's ${what}${
        meant ? `; did you mean ${glossed(meant)}?` : `: ${known.join(", ")}`
      }`,
      { hint: `Use one of ${listed.join(", ")} (stats() lists them with their counts)` },
    );
  }
}
