/**
 * Sums a V8 CPU profile (`--cpu-prof`) by function: self time, the share of
 * the sampled time, and where the function is. Prints the top `N` (default 25).
 *
 *   deno run -A bench/_profile_summary.ts profile.cpuprofile [N]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [path, top = "25"] = Deno.args;
const profile = JSON.parse(await Deno.readTextFile(path)) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const file = frame.url.replace(/^.*\/(lib|bench|tests|node_modules|ext)\//, "$1/");
  const key = `${frame.functionName || "(anonymous)"}  ${file}:${frame.lineNumber + 1}`;
  const delta = profile.timeDeltas[i] ?? 0;
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  total += delta;
});
console.log(`sampled ${(total / 1000).toFixed(0)} ms`);
for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(
    `${(us / 1000).toFixed(1).padStart(8)} ms ${
      (100 * us / total).toFixed(1).padStart(5)
    }%  ${key}`,
  );
}
