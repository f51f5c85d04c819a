/**
 * A windowed harvest's lists are about as long as each other: the windows
 * are cut again where the records are, each list goes on from its first
 * page (no page asked twice), records bunched in one second get a window
 * of their own, and a repository that does not say how long
 * its lists are is read in the first windows, each once. Every list is
 * traced through the tokens the repository sent, read from its answers.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import {
  isoSeconds,
  type OaiSandboxRecord,
  seedOaiRecords,
  startOaiSandbox,
} from "../../../lib/sandbox/archive/oai/mod.ts";
import type { OaiFaults } from "../../../lib/sandbox/archive/oai/types.ts";
import { tableDigest } from "../../../lib/table/mod.ts";

const SITE = "acme/letters";
const PAGE = 100;

/** One list as the repository served it: its window, pages and records. */
interface Chain {
  window: string;
  pages: number;
  records: number;
}

/** A fetch that follows each list through the tokens in the answers. */
function tracedFetch() {
  const chains: Chain[] = [];
  const byToken = new Map<string, Chain>();
  const tokensAsked: string[] = [];
  const traced: typeof fetch = async (input, init) => {
    const query = new URL(String(input)).searchParams;
    const response = await fetch(input, init);
    if (query.get("verb") !== "ListRecords") return response;
    const token = query.get("resumptionToken");
    let chain: Chain;
    if (token) {
      tokensAsked.push(token);
      chain = byToken.get(token)!;
      assert.ok(chain, `a token the repository never sent: ${token}`);
      chain.pages++;
    } else {
      chain = { window: `${query.get("from")} ${query.get("until")}`, pages: 1, records: 0 };
      chains.push(chain);
    }
    const text = await response.clone().text();
    chain.records += text.split("<record>").length - 1;
    const next = text.match(/<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/)?.[1];
    if (next) byToken.set(next, chain);
    return response;
  };
  return { traced, chains, tokensAsked };
}

/** The last `share` of the records moved into three days: one busy stretch. */
function burst(count: number, share: number): OaiSandboxRecord[] {
  const recent = Date.UTC(2026, 0, 1);
  return seedOaiRecords({ count, seed: 5 }).map((record, i) =>
    i < count * (1 - share) ? record : { ...record, datestamp: isoSeconds(recent + i * 60_000) }
  );
}

async function harvestBoth(records: OaiSandboxRecord[], concurrency: number, faults?: OaiFaults) {
  const sandbox = startOaiSandbox({ sites: { [SITE]: { records, repository: {}, faults } } });
  try {
    const endpoint = `${sandbox.url}/${SITE}/api/oai`;
    const quiet = { progress: false as const, warn: () => {} };
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    const { traced, chains, tokensAsked } = tracedFetch();
    const table = await new OaiPmh(endpoint, { ...quiet, concurrency, fetch: traced }).harvest();
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, "the one-list table");
    return { chains, tokensAsked, rows: table.numRows() };
  } finally {
    await sandbox.close();
  }
}

Deno.test("windows cut where the records are: lists of about equal length, no page asked twice", async () => {
  for (
    const [what, records, concurrencies] of [
      // The bench's shape, smaller: nothing in the months before now, so the last even window is light.
      ["records thinning out before now", seedOaiRecords({ count: 8_000, seed: 3 }), [4, 8]],
      ["half the records in three days", burst(6_000, 0.5), [4]],
    ] as const
  ) {
    for (const concurrency of concurrencies) {
      const label = `${what}, ${concurrency} lists`;
      const { chains, tokensAsked, rows } = await harvestBoth([...records], concurrency);
      assert.equal(new Set(tokensAsked).size, tokensAsked.length, `${label}: a token asked twice`);
      const even = Math.ceil(rows / concurrency / PAGE);
      const longest = Math.max(...chains.map((c) => c.pages));
      // Three pages past an even share is where a window counts as long (RECUT_GAIN_PAGES).
      assert.ok(longest <= even + 3, `${label}: a list of ${longest} pages, an even share ${even}`);
      const walked = chains.filter((c) => c.pages > 1);
      assert.ok(walked.length >= concurrency - 1, `${label}: ${walked.length} lists walked`);
    }
  }
});

Deno.test("records stamped in one second: that second becomes a window of its own", async () => {
  // A bulk load: a third of the records stamped at one instant, which no cut can split.
  const records = seedOaiRecords({ count: 6_000, seed: 5 }).map((record, i) =>
    i < 4_000 ? record : { ...record, datestamp: "2024-05-12T00:00:00Z" }
  );
  const { chains, tokensAsked } = await harvestBoth(records, 4);
  assert.equal(new Set(tokensAsked).size, tokensAsked.length, "a token asked twice");
  const bulk = chains.find((c) => c.window === "2024-05-12T00:00:00Z 2024-05-12T00:00:00Z");
  assert.ok(bulk, chains.map((c) => `${c.window}: ${c.records}`).join("\n"));
  assert.equal(bulk.records, 2_000);
  // At most: four even windows, four cut again, and three cuts of the long one in up to four parts.
  assert.ok(chains.length <= 4 + 4 + 3 * 4, `${chains.length} lists begun`);
});

Deno.test("a repository that does not say how long its lists are: each window once, from its first page", async () => {
  const records = seedOaiRecords({ count: 3_000, seed: 3 });
  const { chains, tokensAsked } = await harvestBoth(records, 4, { noListSize: true });
  assert.equal(chains.length, 4, chains.map((c) => c.window).join("; "));
  assert.equal(new Set(chains.map((c) => c.window)).size, 4, "a window asked twice");
  assert.equal(new Set(tokensAsked).size, tokensAsked.length, "a token asked twice");
  assert.equal(chains.reduce((sum, c) => sum + c.records, 0), 3_000);
});

Deno.test("a repository that makes up its list sizes: the one-list table, for few requests more", async () => {
  const records = seedOaiRecords({ count: 8_000, seed: 3 });
  for (const concurrency of [4, 8]) {
    const { chains, tokensAsked } = await harvestBoth(records, concurrency, {
      madeUpListSize: true,
    });
    const asked = chains.length + tokensAsked.length;
    // One list reads 80 pages. Each window ends on a part page, and a cut drops a first page:
    // sizes that mislead cost a few pages a lane, not a harvest many times over.
    assert.ok(asked <= 80 + 4 * concurrency + 8, `${concurrency} lists: ${asked} list requests`);
  }
});
