/**
 * A resumption token that expires in a window whose repository lists past
 * `until` (one that compares days only): the window goes on from `until`,
 * never from a record beyond it (a `from` later than `until` is a
 * badArgument), and the table is the one the harvest gives without the
 * expiry. Windowed harvests (every window has an `until`) and one list
 * with an `until`, at seconds and at day granularity.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import {
  createOaiProvider,
  isoSeconds,
  type OaiFaults,
  type OaiSandboxRecord,
} from "../../../lib/sandbox/archive/oai/mod.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { tableDigest } from "../../../lib/table/mod.ts";

const quiet = { progress: false as const, warn: () => {} };
const DAY_MS = 86_400_000;

/** `count` records from 2024-01-01, one each `stepMs`. */
function records(count: number, stepMs: number): OaiSandboxRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    identifier: `oai:archive.example:acme/letters/r-${String(i).padStart(5, "0")}`,
    slug: `r-${i}`,
    datestamp: isoSeconds(Date.UTC(2024, 0, 1) + i * stepMs),
    setSpec: ["letter"],
    dc: { title: [`Letter ${i}`] },
  }));
}

/**
 * A repository whose `until` reaches the end of its day (seconds) or the
 * next day (days), which still refuses a `from` later than the `until` sent.
 */
function leakyUntil(list: OaiSandboxRecord[], day: boolean, faults: OaiFaults) {
  const provider = createOaiProvider({
    repository: {
      repositoryName: "Letters",
      adminEmail: ["admin@archive.example"],
      granularity: day ? "YYYY-MM-DD" : "YYYY-MM-DDThh:mm:ssZ",
    },
    records: list,
    faults,
  });
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    const from = url.searchParams.get("from");
    const until = url.searchParams.get("until");
    if (!until || (from && from > until)) return provider.handle(request);
    const next = new Date(Date.parse(until.slice(0, 10)) + DAY_MS).toISOString().slice(0, 10);
    url.searchParams.set("until", day ? next : `${until.slice(0, 10)}T23:59:59Z`);
    return provider.handle(new Request(url));
  });
  return { server, url: `${server.url}/acme/letters/api/oai` };
}

Deno.test("a token expiring in a window listed past its until: the table without the expiry", async () => {
  for (
    const [what, list, day, concurrency, options, expirePage] of [
      // 150 records nine minutes apart: the first of two windows ends at noon.
      ["seconds, 2 lists", records(150, 9 * 60_000), false, 2, {
        from: "2024-01-01T00:00:00Z",
        until: "2024-01-01T23:59:59Z",
      }, 1],
      ["seconds, one list with an until", records(150, 9 * 60_000), false, 1, {
        until: "2024-01-01T11:59:59Z",
      }, 1],
      // 60 records a day for six days: the first window's second page ends the day after it.
      ["days, 2 lists", records(360, DAY_MS / 60), true, 2, {
        from: "2024-01-01",
        until: "2024-01-06",
      }, 2],
    ] as const
  ) {
    const faults: OaiFaults = {};
    const { server, url } = leakyUntil([...list], day, faults);
    try {
      const oai = new OaiPmh(url, { ...quiet, concurrency });
      const steady = await oai.harvest(options);
      faults.expireTokenOnPage = expirePage;
      const expired = await oai.harvest(options);
      assert.equal(faults.expireTokenOnPage, undefined, `${what}: the token expired`);
      assert.equal(tableDigest(expired).sha256, tableDigest(steady).sha256, what);
    } finally {
      await server.close();
    }
  }
});
