/**
 * Every DDO matching a filter (the listed ones: NFT state not 5), 20,000
 * assets on the sandbox node: `searchAssets` against a plain `fetch` loop
 * over the node's query endpoint into `aq.from`, and the floor of bare
 * `fetch` + `JSON.parse` of the same pages. ocean.js 8.0.0's
 * `Aquarius.querySearch` posts to the legacy `/api/aquarius/assets/query`,
 * which the node interface does not have, so it cannot do this work at all
 * and is not a contender. Each run is its own process.
 *
 * Run: deno run -A --frozen bench/ocean_bench.ts [rounds]
 */

import * as aq from "arquero";
import { OceanNode } from "../lib/ocean/mod.ts";
import { startOceanSandbox } from "../lib/sandbox/ocean/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { inPool } from "./_pool.ts";

const COUNT = 20_000;
const QUERY_PATH = "/api/aquarius/assets/metadata/query";
const PAGE = 250;
/** The OceanNode default: no interval, six requests in flight per host. */
const CONCURRENCY = 6;

/** One page of the query searchAssets sends. */
async function page(
  url: string,
  number: number,
): Promise<{ hits: { document: unknown }[]; found: number }> {
  const response = await fetch(`${url}${QUERY_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      q: "*",
      filter_by: "indexedMetadata.nft.state:!=5",
      page: number,
      per_page: PAGE,
    }),
  });
  return JSON.parse(await response.text())[0];
}

/** The same pages searchAssets asks for, one after another, as a script would. */
async function pages(url: string, keep: (hits: { document: unknown }[]) => void): Promise<void> {
  let received = 0;
  for (let number = 1;; number++) {
    const { hits, found } = await page(url, number);
    keep(hits);
    received += hits.length;
    if (received >= found || hits.length === 0) return;
  }
}

/** The same pages with searchAssets' default concurrency: the first, then the rest in a pool. */
async function pipelinedPages(url: string, keep: (hits: unknown[]) => void): Promise<void> {
  const first = await page(url, 1);
  keep(first.hits);
  const numbers = Array.from({ length: Math.ceil(first.found / PAGE) - 1 }, (_, i) => i + 2);
  await inPool(numbers, CONCURRENCY, async (number) => keep((await page(url, number)).hits));
}

const contenders: Contender[] = [
  {
    name: `floor: fetch + JSON.parse, ${CONCURRENCY} pages in flight`,
    kind: "floor",
    note: "the same pages and concurrency as searchAssets' defaults",
    run: async (url) => {
      let n = 0;
      await pipelinedPages(url, (hits) => n += hits.length);
      return n;
    },
  },
  {
    name: "tidepool searchAssets (typed table)",
    kind: "tidepool",
    run: async (url) => (await new OceanNode(url, { progress: false }).searchAssets()).numRows(),
  },
  {
    name: "fetch loop + aq.from(DDOs)",
    kind: "alternative",
    run: async (url) => {
      const rows: unknown[] = [];
      await pages(url, (hits) => {
        for (const hit of hits) rows.push(hit.document);
      });
      return aq.from(rows).numRows();
    },
  },
];

if (!(await runChild(contenders))) {
  const sandbox = startOceanSandbox({ count: COUNT });
  try {
    await compare({
      title: "Ocean node",
      work: `every listed DDO, ${COUNT.toLocaleString("en-US")} assets, pages of 250`,
      file: import.meta.url,
      rounds: roundsArg(3),
      warmRuns: 2,
      url: sandbox.url,
      contenders,
      notes: [
        "ocean.js 8.0.0 (Aquarius.querySearch) cannot do this work: it posts to /api/aquarius/assets/query, which the node interface does not have",
      ],
    });
  } finally {
    await sandbox.close();
  }
}
