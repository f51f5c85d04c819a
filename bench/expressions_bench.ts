/**
 * Every expression hit, 20,000 rows, pacing off: `ExpressionSearch.searchAll`
 * against a plain `fetch` loop into `aq.from` (what a script would do) and
 * the floor of bare `fetch` + `JSON.parse` of the same pages (limit 100, the
 * sandbox maximum). Each run is its own process; the sandbox is this one.
 *
 * Run: deno run -A --frozen bench/expressions_bench.ts [rounds]
 */

import * as aq from "arquero";
import { ExpressionSearch } from "../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../lib/sandbox/expressions/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { inPool } from "./_pool.ts";

const ROWS = 20_000;
const PAGE = 100;

async function page(url: string, offset: number): Promise<{ hits: unknown[]; total: number }> {
  const answer = await fetch(`${url}/api/expressions?limit=${PAGE}&offset=${offset}`);
  return JSON.parse(await answer.text());
}

/** The pages one after another, as a script would fetch them. */
async function pages(url: string, keep: (hits: unknown[]) => void): Promise<void> {
  let total = Infinity;
  for (let offset = 0; offset < total; offset += PAGE) {
    const body = await page(url, offset);
    total = body.total;
    keep(body.hits);
  }
}

/** The same pages, `concurrency` in flight after the first, as searchAll pipelines them. */
async function pipelinedPages(
  url: string,
  concurrency: number,
  keep: (hits: unknown[]) => void,
): Promise<void> {
  const first = await page(url, 0);
  keep(first.hits);
  const offsets = Array.from(
    { length: Math.ceil(first.total / PAGE) - 1 },
    (_, i) => (i + 1) * PAGE,
  );
  await inPool(offsets, concurrency, async (offset) => keep((await page(url, offset)).hits));
}

const contenders: Contender[] = [
  {
    name: "floor: fetch + JSON.parse, 4 pages in flight",
    kind: "floor",
    note: "the same pages and concurrency as the first tidepool row",
    run: async (url) => {
      let n = 0;
      await pipelinedPages(url, 4, (hits) => n += hits.length);
      return n;
    },
  },
  {
    name: "fetch + JSON.parse, one page at a time",
    kind: "part",
    note: "the floor of the concurrency-1 row",
    run: async (url) => {
      let n = 0;
      await pages(url, (hits) => n += hits.length);
      return n;
    },
  },
  {
    name: "tidepool searchAll (pacing off, concurrency 4)",
    kind: "tidepool",
    run: async (url) => {
      const client = new ExpressionSearch(url, {
        minIntervalMs: 0,
        concurrency: 4,
        progress: false,
        pageSize: PAGE,
      });
      return (await client.searchAll()).numRows();
    },
  },
  {
    name: "tidepool searchAll (pacing off, concurrency 1)",
    kind: "tidepool",
    run: async (url) => {
      const client = new ExpressionSearch(url, {
        minIntervalMs: 0,
        concurrency: 1,
        progress: false,
        pageSize: PAGE,
      });
      return (await client.searchAll()).numRows();
    },
  },
  {
    name: "fetch loop + aq.from",
    kind: "alternative",
    run: async (url) => {
      const rows: unknown[] = [];
      await pages(url, (hits) => rows.push(...hits));
      return aq.from(rows).numRows();
    },
  },
];

if (!(await runChild(contenders))) {
  const sandbox = startExpressionSandbox({ size: ROWS });
  try {
    await compare({
      title: "Expression search",
      work: `every expression hit, ${ROWS.toLocaleString("en-US")} rows, pages of ${PAGE}`,
      file: import.meta.url,
      rounds: roundsArg(5),
      url: sandbox.url,
      contenders,
    });
  } finally {
    await sandbox.close();
  }
}
