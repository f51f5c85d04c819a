/**
 * Many sandbox OAI-PMH repositories on several loopback hosts (127.0.0.2,
 * 127.0.0.3, ...), each host counting the most requests it had in flight at
 * once. Some repositories answer slowly, some fail until switched back on,
 * some answer a storm of 503s with Retry-After before they serve.
 */

import { createOaiProvider, seedOaiRecords } from "../../../lib/sandbox/archive/oai/mod.ts";
import type { OaiSandboxRecord } from "../../../lib/sandbox/archive/oai/mod.ts";
import { isoSeconds } from "../../../lib/sandbox/archive/oai/seed_oai_records.ts";

/** How a repository behaves. */
export type RepoKind = "plain" | "slow" | "failing" | "storm";

/** One repository of the fleet. */
export interface Repo {
  url: string;
  host: string;
  kind: RepoKind;
  records: OaiSandboxRecord[];
  /** While true, a failing repository answers 500 to everything. */
  down: boolean;
  /** 503s left to answer before the next list request is served (a storm). */
  storm: number;
  /** The `from` argument of each ListRecords request that carried one. */
  froms: string[];
}

/** A host: its in-flight count now and at most. */
export interface HostCount {
  now: number;
  max: number;
  requests: number;
  /** Requests that arrived while a Retry-After this host sent was still running. */
  early: number;
}

export interface Fleet {
  repos: Repo[];
  hosts: Map<string, HostCount>;
  /** Requests in flight on every host together, now and at most. */
  all: { now: number; max: number };
  /** Adds `n` records, changed after every earlier one, to a repository. */
  addRecords(repo: Repo, n: number): void;
  close(): Promise<void>;
}

const KINDS: RepoKind[] = ["plain", "slow", "plain", "failing", "plain", "storm", "slow"];

/**
 * Starts `hosts` servers with `perHost` repositories each, at
 * `http://127.0.0.<2+h>:<port>/r<j>/oai`.
 */
export function startFleet(
  hosts: number,
  perHost: number,
  options: { delayMs?: number; kinds?: readonly RepoKind[] } = {},
): Fleet {
  const kinds = options.kinds ?? KINDS;
  const repos: Repo[] = [];
  const counts = new Map<string, HostCount>();
  const all = { now: 0, max: 0 };
  const servers: Deno.HttpServer<Deno.NetAddr>[] = [];
  try {
    for (let h = 0; h < hosts; h++) {
      const hostname = `127.0.0.${2 + h}`;
      const count: HostCount = { now: 0, max: 0, requests: 0, early: 0 };
      /** Until when (Date.now) the host asked for a pause. */
      let pausedUntil = 0;
      const mine: { repo: Repo; handle: (r: Request) => Promise<Response> }[] = [];
      const server = Deno.serve({ hostname, port: 0, onListen() {} }, async (request) => {
        // 50 ms of slack for the timers' granularity; an early request is one that ignored the pause.
        if (Date.now() < pausedUntil - 50) count.early++;
        count.now++;
        count.requests++;
        count.max = Math.max(count.max, count.now);
        all.now++;
        all.max = Math.max(all.max, all.now);
        try {
          if (count.requests > 5_000) return new Response("bound reached", { status: 503 });
          const url = new URL(request.url);
          const j = Number(/^\/r(\d+)\/oai$/.exec(url.pathname)?.[1] ?? -1);
          const entry = mine[j];
          if (!entry) return new Response("no such repository", { status: 404 });
          const { repo, handle } = entry;
          // A delayed network (every answer late), and slow repositories on top of it.
          const delay = (options.delayMs ?? 0) + (repo.kind === "slow" ? 15 : 0);
          if (delay > 0) await new Promise((ok) => setTimeout(ok, delay));
          if (repo.down) return new Response("repository broken", { status: 500 });
          const verb = url.searchParams.get("verb");
          if (verb === "ListRecords" && repo.storm > 0) {
            repo.storm--;
            pausedUntil = Date.now() + 1_000;
            return new Response("overloaded", { status: 503, headers: { "retry-after": "1" } });
          }
          const from = url.searchParams.get("from");
          if (verb === "ListRecords" && from) repo.froms.push(from);
          const answer = await handle(request);
          // The whole body is read here, so the count covers the answer's sending too.
          return new Response(await answer.text(), answer);
        } finally {
          count.now--;
          all.now--;
        }
      });
      servers.push(server);
      counts.set(hostname, count);
      for (let j = 0; j < perHost; j++) {
        const kind = kinds[(h * perHost + j) % kinds.length];
        const site = `h${h}/r${j}`;
        const records = seedOaiRecords({
          count: 20 + ((h * 7 + j * 13) % 50),
          seed: h * 100 + j,
          site,
        });
        const repo: Repo = {
          url: `http://${hostname}:${server.addr.port}/r${j}/oai`,
          host: hostname,
          kind,
          records,
          down: kind === "failing",
          storm: kind === "storm" ? 2 : 0,
          froms: [],
        };
        const provider = createOaiProvider({
          repository: { repositoryName: site, adminEmail: ["admin@archive.example"] },
          records: () => repo.records,
          pageSize: 15,
        });
        repos.push(repo);
        mine.push({ repo, handle: provider.handle });
      }
    }
  } catch (error) {
    for (const server of servers) server.shutdown();
    throw error;
  }
  return {
    repos,
    hosts: counts,
    all,
    addRecords(repo, n) {
      const latest = Math.max(...repo.records.map((r) => Date.parse(r.datestamp)));
      const fresh = seedOaiRecords({ count: n, seed: 9_000 + repos.indexOf(repo), site: "new" });
      repo.records = [
        ...repo.records,
        ...fresh.map((r, i) => ({
          ...r,
          identifier: `${r.identifier}-${repos.indexOf(repo)}-${repo.records.length + i}`,
          datestamp: isoSeconds(latest + (i + 1) * 3_600_000),
        })),
      ];
    },
    async close() {
      await Promise.all(servers.map((server) => server.shutdown()));
    },
  };
}
