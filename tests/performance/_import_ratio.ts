/**
 * One round of the import ratio, for ratio_guard_test.ts and
 * bench/import_bench.ts: a fresh process imports Arquero, then `spec`
 * (_import_child.ts), and the ratio (Arquero + the rest) / Arquero pairs two
 * times of the same process and the same moment.
 */

/** The services whose entry points (`lib/<service>/mod.ts`, deno.json "exports") are timed too. */
export const SERVICE_ENTRY_POINTS = ["expressions", "subgraph", "ocean", "archive"] as const;

/**
 * Imports Arquero and then `spec` in a new process.
 *
 * @param spec The module to import after Arquero, as a URL.
 * @param env Variables set for the process besides the inherited ones.
 * @param clock What is timed: the wall clock (what a user waits, for the
 *   bench), or the process's CPU time (what other processes on the machine
 *   barely move, for the guard in `deno task test`).
 * @returns (Arquero's import + what `spec` adds) / Arquero's import.
 */
export async function importRatio(
  spec: string,
  env: Record<string, string> = {},
  clock: "wall" | "cpu" = "wall",
): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", new URL("./_import_child.ts", import.meta.url).pathname, spec],
    env,
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`importing ${spec} after Arquero failed`);
  const times = JSON.parse(new TextDecoder().decode(output.stdout));
  const [arquero, rest] = clock === "wall"
    ? [times.arquero, times.rest]
    : [times.arqueroCpu, times.restCpu];
  return (arquero + rest) / arquero;
}
