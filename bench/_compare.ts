/**
 * Side-by-side comparisons (issue 11): the sandbox runs in this process, and
 * every run of every contender is a fresh subprocess, so each one's time and
 * peak memory (VmHWM, the kernel's own peak RSS) are its own and the server
 * does not share a thread with the client. Contenders alternate round by
 * round; medians are printed, and a JSON summary is appended to the file
 * named by `TIDEPOOL_BENCH_JSON` for `run_all.ts` to turn into RESULTS.md.
 *
 * A bench file calls {@linkcode compare}; the same file, started with
 * `--child NAME URL`, runs one contender once and prints its result.
 */

/** One contender. */
export interface Contender {
  name: string;
  /** tidepool, floor or alternative. */
  kind: "tidepool" | "floor" | "alternative" | "part";
  /** The work, in the child process; returns the rows read. */
  run?: (url: string) => Promise<number>;
  /** Instead of `run`: an external command timed as a whole process. */
  command?: (url: string) => string[];
  /** Why this contender cannot run here (e.g. not installed), or undefined. */
  unavailable?: () => string | undefined;
  /** A note printed beside the row (what it does, or why its rows differ). */
  note?: string;
}

/** One run's measurements. */
export interface RunResult {
  /** Time of the work inside the process, run a second time (warm), milliseconds. */
  ms: number;
  /** Time of the first (cold) run of the work, milliseconds. */
  coldMs: number;
  /** From the process start to the end of the first run, milliseconds. */
  processMs: number;
  rows: number;
  /** Peak resident memory of the process, bytes. */
  peakRss: number;
}

/** One row of the summary. */
export interface Summary {
  name: string;
  kind: Contender["kind"];
  ms?: number;
  coldMs?: number;
  processMs?: number;
  peakMiB?: number;
  rows?: number;
  note?: string;
  unavailable?: string;
  /** Timed as a whole external process only. */
  command?: boolean;
  /** Median over rounds of this process time over the floor's in the same round. */
  pairedProcess?: number;
  /** Median over rounds of this peak memory over the floor's in the same round. */
  pairedPeak?: number;
}

/** A benchmark's summary, as written for RESULTS.md. */
export interface BenchSummary {
  title: string;
  work: string;
  rounds: number;
  warmRuns: number;
  summaries: Summary[];
  notes?: string[];
  /** What the ms column measures, where it is not a warm run or an import. */
  msLabel?: string;
  /** The machine's load average (1 min) at the start and the end of the bench. */
  load?: string;
}

/** The 1-minute load average, as /proc/loadavg says. */
export function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  } catch {
    return "unknown";
  }
}

/**
 * The median over rounds of `value(contender) / value(floor)`, each ratio
 * from one round, where the two ran one after the other (A B A B): a load
 * that comes and goes weighs on both sides of a ratio.
 */
export function pairedRatio(
  contender: readonly number[],
  floor: readonly number[],
): number | undefined {
  const ratios = contender.flatMap((value, round) =>
    floor[round] > 0 && Number.isFinite(value) ? [value / floor[round]] : []
  );
  return ratios.length ? median(ratios) : undefined;
}

/** The kernel's record of this process's peak resident memory, in bytes. */
export function peakRss(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const match = /VmHWM:\s+(\d+)\s+kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Deno.memoryUsage().rss;
}

/** The median of some samples. */
export const median = (values: number[]): number =>
  values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Whether this process is a child run; if so, runs it and returns true. */
export async function runChild(contenders: Contender[]): Promise<boolean> {
  if (Deno.args[0] !== "--child") return false;
  const contender = contenders.find((c) => c.name === Deno.args[1]);
  if (!contender?.run) throw new Error(`No contender ${Deno.args[1]}`);
  // The first run is what a fresh script pays (and sets the peak memory);
  // the median of the runs after it, with the code warm, is what the ratios compare.
  let started = performance.now();
  const rows = await contender.run(Deno.args[2]);
  const coldMs = performance.now() - started;
  const processMs = performance.now();
  const peak = peakRss();
  const warm: number[] = [];
  for (let run = 0; run < Number(Deno.args[3] ?? 1); run++) {
    started = performance.now();
    await contender.run(Deno.args[2]);
    warm.push(performance.now() - started);
  }
  const ms = warm.length ? median(warm) : coldMs;
  console.log(JSON.stringify({ ms, coldMs, processMs, rows, peakRss: peak }));
  return true;
}

async function spawn(
  file: string,
  contender: Contender,
  url: string,
  warmRuns: number,
): Promise<RunResult> {
  const started = performance.now();
  if (contender.command) {
    const [program, ...args] = contender.command(url);
    const output = await new Deno.Command(program, { args, stderr: "inherit" }).output();
    const processMs = performance.now() - started;
    if (!output.success) throw new Error(`${contender.name} failed`);
    // The command prints {"rows": n, "peakRss": bytes} as its last line.
    const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
    const result = JSON.parse(lines[lines.length - 1]);
    return {
      ms: processMs,
      coldMs: processMs,
      processMs,
      rows: result.rows,
      peakRss: result.peakRss,
    };
  }
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", file, "--child", contender.name, url, String(warmRuns)],
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`${contender.name} failed`);
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/**
 * Runs every available contender `rounds` times, alternately, each run in
 * its own process, and prints and records the medians.
 */
export async function compare(options: {
  title: string;
  work: string;
  file: string;
  rounds: number;
  /** Runs after the first in each child, timed warm; default 3. */
  warmRuns?: number;
  url: string;
  contenders: Contender[];
  notes?: string[];
}): Promise<BenchSummary> {
  const { contenders, rounds } = options;
  const warmRuns = options.warmRuns ?? 3;
  const file = new URL(options.file).pathname;
  const unavailable = new Map<string, string>();
  for (const c of contenders) {
    const why = c.unavailable?.();
    if (why) unavailable.set(c.name, why);
  }
  const live = contenders.filter((c) => !unavailable.has(c.name));
  const results = new Map<string, RunResult[]>(live.map((c) => [c.name, []]));
  const loadBefore = loadAverage();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...live].reverse() : live;
    for (const c of order) results.get(c.name)!.push(await spawn(file, c, options.url, warmRuns));
  }
  const floorRuns = results.get(live.find((c) => c.kind === "floor")?.name ?? "");
  const summaries: Summary[] = contenders.map((c) => {
    const list = results.get(c.name);
    if (!list) return { name: c.name, kind: c.kind, unavailable: unavailable.get(c.name) };
    return {
      pairedProcess: floorRuns &&
        pairedRatio(list.map((r) => r.processMs), floorRuns.map((r) => r.processMs)),
      pairedPeak: floorRuns &&
        pairedRatio(list.map((r) => r.peakRss), floorRuns.map((r) => r.peakRss)),
      name: c.name,
      kind: c.kind,
      ms: median(list.map((r) => r.ms)),
      coldMs: median(list.map((r) => r.coldMs)),
      processMs: median(list.map((r) => r.processMs)),
      peakMiB: median(list.map((r) => r.peakRss)) / 1024 / 1024,
      rows: list[0].rows,
      note: c.note,
      command: c.command !== undefined,
    };
  });
  const summary: BenchSummary = {
    title: options.title,
    work: options.work,
    rounds,
    warmRuns,
    summaries,
    notes: options.notes,
    load: `${loadBefore} at the start, ${loadAverage()} at the end`,
  };
  print(summary);
  await record(summary);
  return summary;
}

/** Prints a summary: median ms, process ms, peak memory, ratios. */
export function print(summary: BenchSummary): void {
  console.log(
    `\n${summary.title}: ${summary.work} (median of ${summary.rounds} processes, ${summary.warmRuns} warm runs each)`,
  );
  const floor = summary.summaries.find((s) => s.kind === "floor")?.ms;
  for (const s of summary.summaries) {
    if (s.ms === undefined) {
      console.log(`  ${s.name.padEnd(46)} ${s.unavailable ?? "not run"}`);
      continue;
    }
    const parts = [
      s.command
        ? ""
        : `${summary.msLabel ?? (s.coldMs === undefined ? "import" : "warm")} ${
          s.ms.toFixed(0).padStart(6)
        } ms`,
      s.command || s.coldMs === undefined ? "" : `cold ${s.coldMs.toFixed(0).padStart(6)} ms`,
      `process ${s.processMs!.toFixed(0).padStart(6)} ms`,
      s.peakMiB ? `peak ${s.peakMiB.toFixed(0).padStart(4)} MiB` : "",
      floor && !s.command ? `${(s.ms / floor).toFixed(2)}x floor` : "",
      s.pairedProcess ? `process ${s.pairedProcess.toFixed(2)}x floor (paired)` : "",
      s.pairedPeak ? `peak ${s.pairedPeak.toFixed(2)}x floor (paired)` : "",
      s.kind === "alternative" ? `alt/tidepool ${ratio(summary, s)}` : "",
      s.rows !== undefined ? `rows ${s.rows}` : "",
    ].filter(Boolean);
    console.log(`  ${s.name.padEnd(46)} ${parts.join("  ")}`);
  }
  for (const note of summary.notes ?? []) console.log(`  note: ${note}`);
  if (summary.load) console.log(`  load average (1 min): ${summary.load}`);
}

/** Appends the summary to the JSON lines file `run_all.ts` reads, if set. */
export async function record(summary: BenchSummary): Promise<void> {
  const path = Deno.env.get("TIDEPOOL_BENCH_JSON");
  if (!path) return;
  await Deno.writeTextFile(path, JSON.stringify(summary) + "\n", { append: true });
}

/** Rounds from the command line, or a default. */
export function roundsArg(fallback: number): number {
  const value = Number(Deno.args[0]);
  return Deno.args[0] !== "--child" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * An alternative's time over tidepool's: warm work times, or whole-process
 * times for a contender timed only as a process.
 */
export function ratio(summary: BenchSummary, s: Summary): string {
  const tidepool = summary.summaries.find((t) => t.kind === "tidepool" && t.ms !== undefined);
  if (!tidepool || s.ms === undefined) return "";
  const value = s.command ? s.processMs! / tidepool.processMs! : s.ms / tidepool.ms!;
  return value.toFixed(2);
}
