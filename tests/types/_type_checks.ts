/**
 * Helpers of the type-level tests in tests/types/: a check that two types
 * are the same, written so that `deno check` fails where they differ.
 */

/** `true` when `A` and `B` are the same type, else `false`. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** Accepts only `true`: `expectType<Equals<A, B>>(true)` fails to type-check when they differ. */
export function expectType<T extends true>(_ok: T): void {}
