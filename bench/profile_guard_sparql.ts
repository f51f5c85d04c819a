/**
 * Profiles the regression guard's SPARQL JSON step (issue 43): tidepool's
 * read and its floor (`fetch` + `JSON.parse`), each `ROUNDS` times, against
 * the guard's own servers in another process. Run it under `--cpu-prof` and
 * sum the profile with `bench/_profile_summary.ts`:
 *
 *   deno run -A --frozen --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile_guard_sparql.ts
 *   deno run -A --frozen bench/_profile_summary.ts /tmp/prof/*.cpuprofile
 */

import process from "node:process";
import { Archive } from "../lib/archive/mod.ts";
import { withChildServer } from "../tests/_child_runs.ts";

const ROUNDS = 20;
const QUERY = "SELECT * WHERE { ?s ?p ?o }";

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

await withChildServer(
  new URL("../tests/performance/_guard_servers.ts", import.meta.url),
  async (line) => {
    const servers = JSON.parse(line) as { sparql: string };
    const endpoint = `${servers.sparql}/api/guard/dl/json/sparql`;
    const archive = new Archive(servers.sparql, {
      progress: false,
      cache: false,
      account: "guard",
      db: "json",
    });
    const sides = {
      floor: async () => {
        const url = new URL(endpoint);
        url.searchParams.set("query", QUERY);
        const text = await (await fetch(url, {
          headers: { accept: "application/sparql-results+json" },
        })).text();
        return JSON.parse(text).results.bindings.length as number;
      },
      tidepool: async () => {
        const table = await archive.sparql(QUERY, { service: "dl", method: "GET", format: "json" });
        return typeof table === "boolean" ? 0 : table.numRows();
      },
    };
    for (const [name, read] of Object.entries(sides)) {
      await read();
      const started = cpuMs();
      for (let i = 0; i < ROUNDS; i++) await read();
      console.log(`${name}: ${((cpuMs() - started) / ROUNDS).toFixed(1)} ms CPU a read`);
    }
  },
);
