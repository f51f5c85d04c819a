/**
 * The many-sources bench's repositories in a process of their own, so that
 * their CPU never queues behind the contender's: `startFleet` on loopback
 * hosts 127.0.0.2+, every answer late by the given delay. Prints one JSON
 * line (the repositories' URLs and record counts, and a control URL whose
 * `GET /counts` gives each host's most requests in flight since the last
 * `POST /reset`), then serves until killed.
 *
 *   deno run -A --frozen bench/_fleet_process.ts HOSTS PER_HOST DELAY_MS
 */

import { startFleet } from "../tests/archive/oai/_many_hosts.ts";

const [hosts, perHost, delayMs] = Deno.args.map(Number);
const fleet = startFleet(hosts, perHost, { delayMs, kinds: ["plain"] });
const control = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  if (request.method === "POST") {
    for (const count of fleet.hosts.values()) count.max = 0;
    return new Response("reset");
  }
  return Response.json(Object.fromEntries(fleet.hosts));
});
console.log(JSON.stringify({
  control: `http://127.0.0.1:${control.addr.port}`,
  repos: fleet.repos.map((repo) => ({ url: repo.url, records: repo.records.length })),
}));
