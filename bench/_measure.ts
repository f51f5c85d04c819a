/**
 * Shared measuring for the benchmarks: runs contenders alternately on the
 * same work, several rounds, and reports medians and ratios against a
 * baseline measured in the same process.
 */

/** One contender: a name and the work to time. */
export interface Contender {
  name: string;
  run: () => Promise<unknown> | unknown;
}

/** The median times in milliseconds, by contender name. */
export type Medians = Record<string, number>;

/**
 * Runs every contender once to warm up, then `rounds` times in alternating
 * order, and returns the median milliseconds of each.
 */
export async function measure(contenders: Contender[], rounds = 5): Promise<Medians> {
  for (const contender of contenders) await contender.run();
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...contenders].reverse() : contenders;
    for (const contender of order) {
      const started = performance.now();
      await contender.run();
      times.get(contender.name)!.push(performance.now() - started);
    }
  }
  const medians: Medians = {};
  for (const [name, list] of times) {
    list.sort((a, b) => a - b);
    medians[name] = list[Math.floor(list.length / 2)];
  }
  return medians;
}

/** Prints a small table: median ms, rows/s and ratio to the baseline. */
export function report(title: string, medians: Medians, rows: number, baseline: string): void {
  console.log(`\n${title} (${rows.toLocaleString("en-US")} rows, median of rounds)`);
  for (const [name, ms] of Object.entries(medians)) {
    const rate = Math.round((rows / ms) * 1000).toLocaleString("en-US");
    const ratio = (ms / medians[baseline]).toFixed(2);
    console.log(
      `  ${name.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms ${
        rate.padStart(12)
      } rows/s  ${ratio}x ${baseline}`,
    );
  }
}
