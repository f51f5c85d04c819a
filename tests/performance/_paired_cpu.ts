/**
 * Paired CPU-time comparison of two ways of doing one read, shared by the
 * regression guard in `deno task test` (tidepool against a floor) and
 * `deno task guard` (this build against an earlier one): A B, then B A,
 * each run timed in the CPU time of this process, the best of each side (or
 * the median of the pairs' ratios) compared, measured again before it is
 * called over its limit.
 *
 * @module
 */

import process from "node:process";
import { loadAverage, median } from "../../bench/_compare.ts";

/** The CPU time this process has spent (user and system, every thread), milliseconds. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One attempt: the sides' best runs compared, and each round's ratio. */
export interface PairedRatio {
  /** The measured side's best CPU time over the reference side's best. */
  ratio: number;
  /** Each round's measured time over the reference's. */
  ratios: number[];
  /** The rows each side kept in its warming run: [reference, measured]. */
  rows: [number, number];
}

/** What the guard decides of one read: the attempts it measured, and whether one was within the limit. */
export interface Verdict {
  within: boolean;
  attempts: PairedRatio[];
}

/**
 * Runs each side once to warm, then `rounds` pairs (A B, then B A), each
 * timed in CPU. The ratio is the measured side's fastest run over the
 * reference's fastest: the best of each side is the one least slowed by
 * other work (a collection, a neighbour sharing the core's caches).
 *
 * @param reference The side compared against (a floor, an earlier build).
 * @param measured The side under test.
 * @param rounds Pairs to run.
 * @returns The ratio of the bests and every round's ratio.
 */
export async function pairedRatio(
  reference: () => Promise<number>,
  measured: () => Promise<number>,
  rounds: number,
): Promise<PairedRatio> {
  const rows: [number, number] = [await reference(), await measured()];
  const ratios: number[] = [];
  const best = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++) {
    const times = [0, 0];
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      const started = cpuMs();
      await (side === 0 ? reference() : measured());
      times[side] = cpuMs() - started;
      best[side] = Math.min(best[side], times[side]);
    }
    ratios.push(times[1] / times[0]);
  }
  return { ratio: best[1] / best[0], ratios, rows };
}

/** Each round's ratio, two decimals, comma-separated. */
export function roundsText(result: PairedRatio): string {
  return result.ratios.map((r) => r.toFixed(2)).join(", ");
}

/** How a guard measures: pairs an attempt, attempts before a read fails, what the sides are called. */
export interface GuardPlan {
  rounds: number;
  attempts: number;
  /** What the reference side is, for the printed line ("the floor's", "the base's"). */
  against: string;
  /** Checks each attempt's rows (throws when the sides did not read the same). */
  checkRows?: (rows: [number, number]) => void;
  /**
   * What is held to the limit: `best` (default), the best runs' ratio, or
   * `median`, the pairs' median ratio. Two builds of one code are close to
   * each other in every pair, so the median tells a slower build apart even
   * on a loaded machine, where one lucky run can give the slow side a best
   * within the limit.
   */
  judge?: "best" | "median";
}

/** The figure of an attempt that the plan holds to its limit. */
export function judged(result: PairedRatio, plan: Pick<GuardPlan, "judge">): number {
  return plan.judge === "median" ? median(result.ratios) : result.ratio;
}

/**
 * Measures `measured` against `reference` until an attempt is within
 * `limit` (by the plan's `judge`), at most `plan.attempts` times, printing
 * each attempt.
 *
 * @param name The read, for the printed lines.
 * @param limit The largest ratio that passes.
 * @param reference The side compared against.
 * @param measured The side under test.
 * @param plan Rounds, attempts and names.
 * @returns Whether an attempt was within the limit, and every attempt.
 */
export async function measureAgainst(
  name: string,
  limit: number,
  reference: () => Promise<number>,
  measured: () => Promise<number>,
  plan: GuardPlan,
): Promise<Verdict> {
  const attempts: PairedRatio[] = [];
  while (attempts.length < plan.attempts) {
    const result = await pairedRatio(reference, measured, plan.rounds);
    attempts.push(result);
    const limitText = ` (limit ${limit}x)`;
    const byMedian = plan.judge === "median";
    console.log(
      `${name}: best ${result.ratio.toFixed(2)}x ${plan.against} best in CPU time${
        byMedian ? "" : limitText
      }, pairs' median ${median(result.ratios).toFixed(2)}x${byMedian ? limitText : ""} (rounds: ${
        roundsText(result)
      }; attempt ${attempts.length}; load ${loadAverage()})`,
    );
    plan.checkRows?.(result.rows);
    if (judged(result, plan) <= limit) return { within: true, attempts };
  }
  return { within: false, attempts };
}
