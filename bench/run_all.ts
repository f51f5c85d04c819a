/**
 * Runs every benchmark in `bench/` one after another, each in its own
 * process so one cannot warm or burden the next.
 *
 * Run: deno task bench
 */

const here = new URL(".", import.meta.url).pathname;
const benches = [...Deno.readDirSync(here)]
  .filter((entry) => entry.isFile && entry.name.endsWith("_bench.ts"))
  .map((entry) => entry.name)
  .sort();

let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", `${here}${name}`],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
if (failed) {
  console.error(`${failed} benchmark(s) failed`);
  Deno.exit(1);
}
