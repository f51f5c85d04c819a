/**
 * The sandbox's "now": one fixed, past instant that every seeded date agrees
 * on, so that "the last 90 days" against the sandbox means the 90 days before
 * it, on any machine, on any day the sandbox runs.
 *
 * @module
 */

/**
 * The instant the seeded sandbox data was "taken": 2026-06-30T00:00:00Z, as
 * milliseconds since the Unix epoch. The subgraph's `_meta` block (its head)
 * has this timestamp; every seeded order, DDO date (created, updated,
 * indexed), NFT update, archive record and OAI-PMH datestamp lies at or before
 * it. What a run does to a sandbox (writes, compute jobs, chain transactions)
 * carries the machine's clock instead.
 *
 * @example The last 90 days of sandbox orders
 * ```ts
 * import { SANDBOX_NOW } from "./sandbox_now.ts";
 *
 * const since = new Date(SANDBOX_NOW - 90 * 86_400_000);
 * console.assert(since.toISOString() === "2026-04-01T00:00:00.000Z");
 * // then: await subgraph.orders({ since })
 * ```
 */
export const SANDBOX_NOW: number = Date.UTC(2026, 5, 30);

/** Seconds between blocks of the sandbox chain clock, as on Ethereum. */
export const BLOCK_SECONDS = 12;

/** The subgraph's head block, indexed at {@linkcode SANDBOX_NOW}. */
export const HEAD_BLOCK = 14_087_549;

/** The Unix time (seconds) of a block on the sandbox's chain clock. */
export function blockTime(block: number): number {
  return SANDBOX_NOW / 1000 - (HEAD_BLOCK - block) * BLOCK_SECONDS;
}

/** The time (milliseconds) of a block on the sandbox's chain clock. */
export function blockMs(block: number): number {
  return blockTime(block) * 1000;
}
