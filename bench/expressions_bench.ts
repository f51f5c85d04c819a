/**
 * searchAll of 20,000 expressions from the sandbox with pacing off, against
 * the floor: bare `fetch` + `JSON.parse` of the same pages (limit 100, the
 * sandbox maximum), in the same process, alternately.
 *
 * Run: deno run -A --frozen bench/expressions_bench.ts
 */

import { ExpressionSearch } from "../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../lib/sandbox/expressions/mod.ts";
import { measure, report } from "./_measure.ts";

const sandbox = startExpressionSandbox({ size: 20_000 });
try {
  const pageSize = sandbox.maxLimit;
  const client = new ExpressionSearch(sandbox.url, {
    minIntervalMs: 0,
    concurrency: 1,
    progress: false,
    pageSize,
  });
  let rows = 0;
  const medians = await measure([
    {
      name: "fetch + JSON.parse (floor)",
      run: async () => {
        let total = Infinity;
        let count = 0;
        for (let offset = 0; offset < total; offset += pageSize) {
          const answer = await fetch(
            `${sandbox.url}/api/expressions?limit=${pageSize}&offset=${offset}`,
          );
          const body = JSON.parse(await answer.text());
          total = body.total;
          count += body.hits.length;
        }
        if (count !== 20_000) throw new Error(`floor read ${count} rows`);
      },
    },
    {
      name: "ExpressionSearch.searchAll (pacing off)",
      run: async () => {
        const table = await client.searchAll();
        rows = table.numRows();
        if (rows !== 20_000) throw new Error(`searchAll read ${rows} rows`);
      },
    },
  ], 7);
  report("expression searchAll", medians, 20_000, "fetch + JSON.parse (floor)");
} finally {
  await sandbox.close();
}
