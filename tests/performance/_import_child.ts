/** Times one dynamic import in a fresh process, for ratio_guard_test.ts; prints milliseconds. */
const started = performance.now();
await import(Deno.args[0]);
console.log(performance.now() - started);
