/**
 * Where the time of one network_bench contender goes: the contender runs
 * in a child process with `--cpu-prof`, behind the bench's gate (each
 * request held `--delay` ms), and the gate notes each request's arrival,
 * forwarding and answer. Prints the phases (process start to first request,
 * the requests, last answer to exit), the requests sent, how many were in
 * flight on average, the server's own time, and the child's CPU profile
 * summed by function.
 *
 *   deno run -A --frozen bench/network_profile.ts oai|subgraph "CONTENDER NAME" [--delay=100] [top]
 */

import { type GateTrace, startNetworkGate } from "./_network_gate.ts";
import { withServer } from "./_network_servers.ts";

const [kind, name] = Deno.args;
const delayMs = Number(
  Deno.args.find((arg) => arg.startsWith("--delay="))?.slice("--delay=".length) ?? 100,
);
const top = Deno.args.find((arg) => /^\d+$/.test(arg)) ?? "20";
const here = (file: string) => new URL(file, import.meta.url).pathname;

await withServer(kind as "oai" | "subgraph", async ({ url, path }) => {
  const trace: GateTrace[] = [];
  const gate = startNetworkGate(url, { delayMs, trace });
  const profiles = await Deno.makeTempDir({ prefix: "tidepool-network-profile-" });
  try {
    const spawned = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--frozen",
        "--cpu-prof",
        `--cpu-prof-dir=${profiles}`,
        here("./network_bench.ts"),
        "--child",
        name,
        gate.url + path,
      ],
      stderr: "inherit",
    }).output();
    const exited = performance.now();
    if (!output.success) throw new Error(`${name} failed`);
    const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
    const result = JSON.parse(lines[lines.length - 1]);
    const first = Math.min(...trace.map((t) => t.arrived));
    const last = Math.max(...trace.map((t) => t.answered));
    const held = trace.reduce((sum, t) => sum + t.answered - t.arrived, 0);
    const server = trace.reduce((sum, t) => sum + t.answered - t.forwarded, 0);
    const gaps = trace.map((t) => t.answered - t.forwarded).sort((a, b) => a - b);
    const firstPages = trace.filter((t) => !t.query.includes("resumptionToken")).length;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`${name}, ${delayMs} ms a request, rows ${result.rows}`);
    console.log(`  process start to first request  ${s(first - spawned)}`);
    console.log(`  first request to last answer    ${s(last - first)}`);
    console.log(`  last answer to exit             ${s(exited - last)}`);
    console.log(`  contender's own time            ${s(result.ms)}`);
    console.log(
      `  requests ${trace.length} (${firstPages} without a token), ${
        (held / (last - first)).toFixed(2)
      } in flight on average, most ${gate.inFlight.max}`,
    );
    console.log(
      `  the server's own time: ${s(server)} in all, median ${
        gaps[Math.floor(gaps.length / 2)].toFixed(0)
      } ms, slowest ${gaps.at(-1)!.toFixed(0)} ms a request`,
    );
    // In flight over the request phase, in tenths: how long each count held.
    const events = trace.flatMap((t) => [[t.arrived, 1], [t.answered, -1]]).sort((a, b) =>
      a[0] - b[0]
    );
    const at = new Map<number, number>();
    let now = 0;
    let since = first;
    for (const [time, step] of events) {
      at.set(now, (at.get(now) ?? 0) + time - since);
      now += step;
      since = time;
    }
    console.log(
      `  time at each count in flight: ${
        [...at].sort((a, b) => a[0] - b[0]).map(([n, ms]) => `${n}: ${s(ms)}`).join(", ")
      }`,
    );
    const dump = Deno.env.get("TRACE_FILE");
    if (dump) await Deno.writeTextFile(dump, JSON.stringify(trace));
    for await (const entry of Deno.readDir(profiles)) {
      const summary = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", here("./_profile_summary.ts"), `${profiles}/${entry.name}`, top],
      }).output();
      console.log(new TextDecoder().decode(summary.stdout));
    }
  } finally {
    await gate.close();
    await Deno.remove(profiles, { recursive: true });
  }
});
