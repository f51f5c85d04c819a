/**
 * For _import_ratio.ts: imports Arquero, then `Deno.args[0]`, in one
 * fresh process, and prints the milliseconds of each, on the wall clock and
 * in CPU time, as JSON. The second import pays only for what it adds to
 * Arquero, so both sides of the ratio come from the same process and the
 * same moment. `node:process` (for the CPU time) loads before either is timed.
 */
import process from "node:process";

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let started = performance.now();
let startedCpu = cpuMs();
await import("arquero");
const arquero = performance.now() - started;
const arqueroCpu = cpuMs() - startedCpu;
started = performance.now();
startedCpu = cpuMs();
await import(Deno.args[0]);
const rest = performance.now() - started;
const restCpu = cpuMs() - startedCpu;
console.log(JSON.stringify({ arquero, rest, arqueroCpu, restCpu }));
