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

const COUNT = 20_000;
const QUERY_PATH = "/api/aquarius/assets/metadata/query";

/** The same pages searchAssets asks for, one after another. */
async function pages(url: string, keep: (hits: { document: unknown }[]) => void): Promise<void> {
  let received = 0;
  for (let page = 1;; page++) {
    const response = await fetch(`${url}${QUERY_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        q: "*",
        filter_by: "indexedMetadata.nft.state:!=5",
        page,
        per_page: 250,
      }),
    });
    const results = JSON.parse(await response.text());
    const hits = results[0].hits;
    keep(hits);
    received += hits.length;
    if (received >= results[0].found || hits.length === 0) return;
  }
}

const contenders: Contender[] = [
  {
    name: "floor: fetch + JSON.parse",
    kind: "floor",
    run: async (url) => {
      let n = 0;
      await pages(url, (hits) => n += hits.length);
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
