/**
 * Every expression hit, 20,000 and 200,000 rows, pages of 100 (the sandbox
 * maximum), pacing off: `ExpressionSearch.searchAll` against its floor, bare
 * `fetch` + `JSON.parse` of the same pages at the same concurrency with the
 * hits kept, and against what a script would do, a `fetch` loop into
 * `aq.from`. One page at a time, then four in flight. Each run is its own
 * process; the sandbox is this one, so the server never shares a thread
 * with a contender.
 *
 * Run: deno run -A --frozen bench/expressions_bench.ts [rounds]
 */

import * as aq from "arquero";
import { ExpressionSearch } from "../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../lib/sandbox/expressions/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { inPool } from "./_pool.ts";

const SIZES = [20_000, 200_000];
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

/** The floor keeps every page's hits, as the table does, so both hold the rows. */
function kept(): { keep: (hits: unknown[]) => void; count: () => number } {
  const all: unknown[][] = [];
  return { keep: (hits) => all.push(hits), count: () => all.reduce((n, h) => n + h.length, 0) };
}

const searchAll = (url: string, concurrency: number) =>
  new ExpressionSearch(url, { minIntervalMs: 0, concurrency, progress: false, pageSize: PAGE })
    .searchAll();

const ONE_AT_A_TIME: Contender[] = [
  {
    name: "floor: fetch + JSON.parse, one page at a time, hits kept",
    kind: "floor",
    run: async (url) => {
      const { keep, count } = kept();
      await pages(url, keep);
      return count();
    },
  },
  {
    name: "tidepool searchAll (pacing off, concurrency 1)",
    kind: "tidepool",
    run: async (url) => (await searchAll(url, 1)).numRows(),
  },
  {
    name: "fetch loop + aq.from",
    kind: "alternative",
    note: "untyped columns, no repeats removed",
    run: async (url) => {
      const rows: unknown[] = [];
      await pages(url, (hits) => {
        for (const hit of hits) rows.push(hit);
      });
      return aq.from(rows).numRows();
    },
  },
];

const FOUR_IN_FLIGHT: Contender[] = [
  {
    name: "floor: fetch + JSON.parse, 4 pages in flight, hits kept",
    kind: "floor",
    run: async (url) => {
      const { keep, count } = kept();
      await pipelinedPages(url, 4, keep);
      return count();
    },
  },
  {
    name: "tidepool searchAll (pacing off, concurrency 4)",
    kind: "tidepool",
    run: async (url) => (await searchAll(url, 4)).numRows(),
  },
];

const NOTES = [
  "Targets (issue 34): tidepool within 1.25x of the floor, and faster than the fetch loop + aq.from",
];

if (!(await runChild([...ONE_AT_A_TIME, ...FOUR_IN_FLIGHT]))) {
  for (const size of SIZES) {
    const sandbox = startExpressionSandbox({ size });
    const rows = size.toLocaleString("en-US");
    try {
      for (
        const [how, contenders] of [
          ["one page at a time", ONE_AT_A_TIME],
          ["4 pages in flight", FOUR_IN_FLIGHT],
        ] as const
      ) {
        await compare({
          title: "Expression search",
          work: `every expression hit, ${rows} rows, pages of ${PAGE}, ${how}`,
          file: import.meta.url,
          rounds: roundsArg(5),
          warmRuns: size > 50_000 ? 1 : 3,
          url: sandbox.url,
          contenders,
          notes: NOTES,
        });
      }
    } finally {
      await sandbox.close();
    }
  }
}
