/**
 * `deno task guard [REF]`: is this build slower than an earlier one, on
 * this machine? Each read of the regression guard (tests/performance) is
 * run with this working tree's clients and with REF's (default `HEAD`: an
 * uncommitted change is judged against its commit; give the commit a branch
 * started from to judge the branch), in paired rounds in one process, timed
 * in CPU time. A read whose pairs' median ratio passes 1.4x in each of three
 * attempts fails. The median, not the best runs: on a loaded machine one
 * lucky run gave a build with its SPARQL JSON parser run twice (1.65x in the
 * median) a best within 1.5x. Both sides share the machine and its load, so
 * the same code's medians stayed within 0.85x to 1.15x (bench/RESULTS.md,
 * "Issue 43"), and a read made twice as slow fails. Prints each attempt;
 * exits 1 when a read failed.
 *
 * @module
 */

import { ExpressionSearch } from "../lib/expressions/mod.ts";
import { Archive } from "../lib/archive/mod.ts";
import { OaiPmh } from "../lib/archive/oai/mod.ts";
import { Subgraph } from "../lib/subgraph/mod.ts";
import {
  GUARD_READS,
  type GuardClients,
  readOf,
  withGuardServers,
} from "../tests/performance/_guard_reads.ts";
import {
  type GuardPlan,
  judged,
  measureAgainst,
  type PairedRatio,
} from "../tests/performance/_paired_cpu.ts";
import { loadAverage } from "./_compare.ts";

/** The most a read's median pair may cost against the base build's: about halfway, geometrically, between 1x and 2x (1.41x). */
const LIMIT = 1.4;
// An even count: as many rounds run this tree's side first as second, so the median favours neither.
const PLAN: GuardPlan = { rounds: 16, attempts: 3, against: "the base's", judge: "median" };

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const output = await new Deno.Command(command, { args, cwd, stderr: "piped" }).output();
  if (!output.success) {
    throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout).trim();
}

/** REF's `lib` folder (and the deno.json its version comes from), written to a new temporary folder, and its commit. */
async function checkOutBase(ref: string): Promise<{ dir: string; commit: string }> {
  const root = new URL("..", import.meta.url).pathname;
  const commit = await run("git", ["rev-parse", "--verify", `${ref}^{commit}`], root);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-guard-base-" });
  const tar = `${dir}/lib.tar`;
  await run(
    "git",
    ["archive", "--format=tar", `--output=${tar}`, commit, "lib", "deno.json"],
    root,
  );
  await run("tar", ["-xf", tar, "-C", dir], root);
  await Deno.remove(tar);
  return { dir, commit };
}

async function baseClients(dir: string): Promise<GuardClients> {
  const load = (path: string) => import(new URL(`file://${dir}/lib/${path}`).href);
  return {
    ExpressionSearch: (await load("expressions/mod.ts")).ExpressionSearch,
    Archive: (await load("archive/mod.ts")).Archive,
    OaiPmh: (await load("archive/oai/mod.ts")).OaiPmh,
    Subgraph: (await load("subgraph/mod.ts")).Subgraph,
  };
}

const ref = Deno.args[0] ?? "HEAD";
const base = await checkOutBase(ref);
const results: [string, boolean, PairedRatio[]][] = [];
try {
  console.log(
    `guard: this working tree against ${ref} (${
      base.commit.slice(0, 12)
    }), CPU time, limit ${LIMIT}x on the pairs' median; load ${loadAverage()}`,
  );
  const clients = { ExpressionSearch, Archive, OaiPmh, Subgraph };
  const before = await baseClients(base.dir);
  await withGuardServers(async (servers) => {
    for (const [, name] of GUARD_READS) {
      const now = await readOf(name, servers, clients);
      const then = await readOf(name, servers, before);
      const verdict = await measureAgainst(name, LIMIT, then.tidepool, now.tidepool, PLAN);
      results.push([name, verdict.within, verdict.attempts]);
    }
  });
} finally {
  await Deno.remove(base.dir, { recursive: true });
}
const failed = results.filter(([, within]) => !within);
for (const [name, within, attempts] of results) {
  const ratios = attempts.map((a) => `${judged(a, PLAN).toFixed(2)}x`).join(", ");
  console.log(`${within ? "ok  " : "SLOW"} ${name}: ${ratios} the base's CPU time (pairs' median)`);
}
if (failed.length > 0) {
  console.log(
    `guard: ${failed.length} read(s) took more than ${LIMIT}x the base build's CPU time (pairs' median) in each of ${PLAN.attempts} attempts`,
  );
  Deno.exit(1);
}
