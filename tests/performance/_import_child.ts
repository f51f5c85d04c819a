/**
 * For _import_ratio.ts: imports Arquero, then `Deno.args[0]`, in one
 * fresh process, and prints the milliseconds of each as JSON. The second
 * import pays only for what it adds to Arquero, so both sides of the ratio
 * come from the same process and the same moment.
 */
let started = performance.now();
await import("arquero");
const arquero = performance.now() - started;
started = performance.now();
await import(Deno.args[0]);
const rest = performance.now() - started;
console.log(JSON.stringify({ arquero, rest }));
