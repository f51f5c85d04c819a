/**
 * `searchAssets` over the sandbox node's 2,000 and 20,000 DDOs against the
 * floor: bare `fetch` + `JSON.parse` of the same pages, in the same process.
 *
 * Run: deno run -A --frozen bench/ocean_bench.ts
 */

import { OceanNode } from "../lib/ocean/mod.ts";
import { startOceanSandbox } from "../lib/sandbox/ocean/mod.ts";
import { measure, report } from "./_measure.ts";

const QUERY_PATH = "/api/aquarius/assets/metadata/query";

/** The same pages searchAssets asks for, fetched and parsed, nothing more. */
async function floor(url: string): Promise<number> {
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
    const hits = results[0].hits.length;
    received += hits;
    if (received >= results[0].found || hits === 0) return received;
  }
}

for (const count of [2_000, 20_000]) {
  const sandbox = startOceanSandbox({ count });
  try {
    const node = new OceanNode(sandbox.url, { progress: false });
    let rows = 0;
    const medians = await measure([
      {
        name: "tidepool searchAssets (table, checks)",
        run: async () => {
          rows = (await node.searchAssets()).numRows();
        },
      },
      { name: "floor: fetch + JSON.parse", run: () => floor(sandbox.url) },
    ], count > 5_000 ? 3 : 5);
    report(
      `searchAssets over ${count.toLocaleString("en-US")} DDOs`,
      medians,
      rows,
      "floor: fetch + JSON.parse",
    );
  } finally {
    await sandbox.close();
  }
}
