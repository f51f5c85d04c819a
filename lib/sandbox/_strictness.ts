/**
 * How strictly a sandbox follows its spec, and which of the spec's "not
 * shown" shapes it answers with. A strict sandbox (the default) answers
 * only what the spec defines: parameters, endpoints and body fields the
 * spec does not list get the spec's error shape. A lenient one (for demos)
 * lets them pass. The shapes seed picks, where the spec says "not shown",
 * one of several plausible shapes, so the clients are tested against
 * variants rather than against the guess the sandbox was written with.
 *
 * @module
 */

import { SeededRandom } from "./_random.ts";

/** `strict`: only what the spec defines; `lenient`: undocumented extras pass. */
export type SandboxMode = "strict" | "lenient";

/** The environment variable that sets the shapes seed of every sandbox started without one. */
export const SANDBOX_SEED_VARIABLE = "TIDEPOOL_SANDBOX_SEED";

/**
 * The shapes seed: the one given, else {@linkcode SANDBOX_SEED_VARIABLE},
 * else 0. Seed 0 answers with the shapes the sandbox was first written with
 * and no extra fields; any other seed varies them.
 *
 * @param given The seed a caller passed, if any.
 * @returns The seed to use.
 *
 * @example The default seed
 * ```ts
 * import { shapesSeed } from "./_strictness.ts";
 * console.log(shapesSeed(2)); // 2
 * ```
 */
export function shapesSeed(given?: number): number {
  if (given !== undefined) return given;
  let text: string | undefined;
  try {
    text = Deno.env.get(SANDBOX_SEED_VARIABLE);
  } catch {
    return 0; // no --allow-env: the default shapes
  }
  const seed = Number(text ?? "0");
  return Number.isInteger(seed) && seed >= 0 ? seed : 0;
}

const EXTRA_NAMES = ["revision", "_links", "x_request_id", "indexed_by", "schema_version"];

/**
 * Fields the spec does not list, added to the records a seeded sandbox
 * sends ("fields other than those listed: not shown"), the same for every
 * record of one sandbox. Seed 0 adds none.
 *
 * @param seed The shapes seed.
 * @returns The fields to spread into each record.
 *
 * @example
 * ```ts
 * import { extraFields } from "./_strictness.ts";
 * console.log(Object.keys(extraFields(0)).length); // 0
 * ```
 */
export function extraFields(seed: number): Record<string, unknown> {
  if (seed === 0) return {};
  const random = new SeededRandom(seed * 7919);
  const name = random.pick(EXTRA_NAMES);
  const values: unknown[] = [3, "sandbox", { href: "/" }, null, ["a", "b"], true];
  return { [name]: random.pick(values), [`${name}_at`]: "2026-01-01T00:00:00Z" };
}

/**
 * One of a list of variants, by seed: seed 0 takes the first (the original
 * shape); seeds 1, 2, 3, ... take the variants in turn, so any three
 * consecutive seeds cover three variants.
 *
 * @param seed The shapes seed.
 * @param variants The plausible shapes, the original first.
 * @returns The chosen one.
 *
 * @example
 * ```ts
 * import { variantOf } from "./_strictness.ts";
 * console.log(variantOf(2, ["a", "b", "c"])); // "c"
 * ```
 */
export function variantOf<T>(seed: number, variants: readonly T[]): T {
  return variants[seed % variants.length];
}
