/**
 * The regression guard of issue 34: a small size of each read against its
 * floor (the same requests with bare `fetch` and a parser, results kept),
 * in paired runs A B, B A in this process with the servers in another; a
 * read fails when its best run passes 1.5x the floor's best: ratios, not
 * times, so a slow machine slows both sides. Sizes are
 * small; `deno task bench` measures the full sizes.
 */

import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { SaxesParser } from "saxes";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { Archive } from "../../lib/archive/mod.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";
import { withChildServer } from "../_child_runs.ts";
import { importRatio, SERVICE_ENTRY_POINTS } from "./_import_ratio.ts";
import { loadAverage, median } from "../../bench/_compare.ts";

const LIMIT = 1.5;
const ROUNDS = 9;
const QUERY = "SELECT * WHERE { ?s ?p ?o }";

interface Servers {
  expressions: string;
  oai: string;
  subgraph: string;
  sparql: string;
}

/**
 * Runs floor and tidepool once each to warm, then `ROUNDS` pairs (A B, then
 * B A). The guard's ratio is the fastest tidepool run over the fastest floor
 * run: the best of each side is the one least slowed by other work on the
 * machine (two CI runs at once, load 3.6, moved the median of the expression
 * pairs from 1.0x to 1.6x; beside two CPU-bound processes the median was
 * 1.55x and the best 1.26x). The paired ratios are printed beside it.
 */
async function pairedRatio(
  floor: () => Promise<number>,
  tidepool: () => Promise<number>,
): Promise<{ ratio: number; ratios: number[]; rows: [number, number] }> {
  const rows: [number, number] = [await floor(), await tidepool()];
  const ratios: number[] = [];
  const best = [Infinity, Infinity];
  for (let round = 0; round < ROUNDS; round++) {
    const times = [0, 0];
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      const started = performance.now();
      await (side === 0 ? floor() : tidepool());
      times[side] = performance.now() - started;
      best[side] = Math.min(best[side], times[side]);
    }
    ratios.push(times[1] / times[0]);
  }
  return { ratio: best[1] / best[0], ratios, rows };
}

function assertWithin(name: string, result: Awaited<ReturnType<typeof pairedRatio>>) {
  const ratios = result.ratios.map((r) => r.toFixed(2)).join(", ");
  console.log(
    `${name}: best ${result.ratio.toFixed(2)}x the floor's best, pairs' median ${
      median(result.ratios).toFixed(2)
    }x (rounds: ${ratios}; load ${loadAverage()})`,
  );
  // The floor sends the same requests (the subgraph's pages overlap at their seams).
  assert.ok(result.rows[1] > 0 && result.rows[0] >= result.rows[1], `${name}: rows ${result.rows}`);
  assert.ok(
    result.ratio <= LIMIT,
    `${name}: its best run took ${
      result.ratio.toFixed(2)
    }x the floor's best (limit ${LIMIT}x; paired rounds ${ratios})`,
  );
}

function withServers(run: (servers: Servers) => Promise<void>): Promise<void> {
  return withChildServer(
    new URL("./_guard_servers.ts", import.meta.url),
    (line) => run(JSON.parse(line)),
  );
}

const client = { progress: false, cache: false } as const;

Deno.test("every read stays within 1.5x its floor (paired runs, small sizes)", async (t) => {
  await withServers(async (servers) => {
    await t.step("expression searchAll, one page at a time", async () => {
      const page = async (offset: number) =>
        JSON.parse(
          await (await fetch(`${servers.expressions}/api/expressions?limit=100&offset=${offset}`))
            .text(),
        );
      assertWithin(
        "expressions",
        await pairedRatio(
          async () => {
            const kept: unknown[][] = [];
            let total = Infinity;
            for (let offset = 0; offset < total; offset += 100) {
              const body = await page(offset);
              total = body.total;
              kept.push(body.hits);
            }
            return kept.reduce((n, hits) => n + hits.length, 0);
          },
          async () =>
            (await new ExpressionSearch(servers.expressions, {
              ...client,
              minIntervalMs: 0,
              concurrency: 1,
              pageSize: 100,
            }).searchAll()).numRows(),
        ),
      );
    });

    for (const format of ["json", "xml"] as const) {
      await t.step(`SPARQL SELECT, ${format}`, async () => {
        const endpoint = `${servers.sparql}/api/guard/dl/${format}/sparql`;
        assertWithin(
          `sparql ${format}`,
          await pairedRatio(
            async () => {
              const url = new URL(endpoint);
              url.searchParams.set("query", QUERY);
              const text = await (await fetch(url, {
                headers: { accept: `application/sparql-results+${format}` },
              })).text();
              if (format === "json") return JSON.parse(text).results.bindings.length;
              let rows = 0;
              const parser = new SaxesParser({ position: true });
              parser.on("opentag", (tag) => {
                if (tag.name === "result") rows++;
              });
              parser.on("text", () => {});
              parser.write(text).close();
              return rows;
            },
            async () => {
              const archive = new Archive(servers.sparql, {
                ...client,
                account: "guard",
                db: format,
              });
              const table = await archive.sparql(QUERY, { service: "dl", method: "GET", format });
              return typeof table === "boolean" ? 0 : table.numRows();
            },
          ),
        );
      });
    }

    await t.step("OAI-PMH harvest, oai_dc", async () => {
      assertWithin(
        "oai harvest",
        await pairedRatio(
          async () => {
            const parser = new XMLParser({ ignoreAttributes: false });
            const kept: unknown[] = [];
            let url = `${servers.oai}?verb=ListRecords&metadataPrefix=oai_dc`;
            for (;;) {
              const list = parser.parse(await (await fetch(url)).text())["OAI-PMH"].ListRecords;
              for (const record of [list.record].flat()) kept.push(record);
              const token = list.resumptionToken?.["#text"];
              if (!token) break;
              url = `${servers.oai}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
            }
            return kept.length;
          },
          async () =>
            (await new OaiPmh(servers.oai, client).harvest({ metadataPrefix: "oai_dc" }))
              .numRows(),
        ),
      );
    });

    await t.step("subgraph orders()", async () => {
      // The floor sends tidepool's own requests, recorded once.
      const bodies: string[] = [];
      await new Subgraph(servers.subgraph, {
        ...client,
        fetch: (input, init) => {
          if (typeof init?.body === "string") bodies.push(init.body);
          return fetch(input, init);
        },
      }).orders();
      assertWithin(
        "subgraph orders",
        await pairedRatio(
          async () => {
            let rows = 0;
            for (const body of bodies) {
              const response = await fetch(servers.subgraph, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body,
              });
              rows += (JSON.parse(await response.text()).data.rows as unknown[]).length;
            }
            return rows;
          },
          async () => (await new Subgraph(servers.subgraph, client).orders()).numRows(),
        ),
      );
    });
  });
});

/**
 * Importing mod.ts against importing Arquero alone, in one fresh process a
 * round: Arquero first, then mod.ts, whose import then costs only what it
 * adds, so the ratio (Arquero + the rest) / Arquero pairs two times of the
 * same process. (Two processes a round gave ratios of 1.7x to 3.2x in one
 * CI run.) The target of issue 34 is 1.3x and is not met yet (about 1.7x:
 * Deno reads every module a dynamic import can reach when it builds the
 * graph, and evaluates about 115 of ours); this guard fails at 2.0x, which
 * catches the adapters' code made eager again (1.9x to 2.1x before it was
 * lazy) or a heavy package (viem made it 3.35x).
 */
Deno.test("importing mod.ts stays within 2.0x of importing Arquero (paired in each process)", async () => {
  await assertImportWithin("mod.ts", new URL("../../mod.ts", import.meta.url).href, 2.0);
});

/**
 * A script that uses one service imports its entry point (deno.json
 * "exports"), which reaches far fewer files than mod.ts: 1.19x Arquero's
 * import for ./expressions and ./subgraph, 1.32x and 1.33x for ./ocean and
 * ./archive when this guard was written. It fails at 1.5x, which a heavy
 * package or a read's code loaded at import would pass.
 */
Deno.test("importing one service's entry point stays within 1.5x of importing Arquero", async (t) => {
  for (const service of SERVICE_ENTRY_POINTS) {
    await t.step(`./${service}`, async () => {
      const spec = new URL(`../../lib/${service}/mod.ts`, import.meta.url).href;
      await assertImportWithin(`./${service}`, spec, 1.5);
    });
  }
});

/** The median of `ROUNDS` paired import ratios of `spec`, printed, must stay within `limit`. */
async function assertImportWithin(name: string, spec: string, limit: number): Promise<void> {
  await importRatio(spec); // a first run may transpile; no round pays for it
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) ratios.push(await importRatio(spec));
  const ratio = median(ratios);
  console.log(
    `import: ${name} ${ratio.toFixed(2)}x Arquero (rounds: ${
      ratios.map((r) => r.toFixed(2)).join(", ")
    }; load ${loadAverage()})`,
  );
  assert.ok(ratio <= limit, `importing ${name} took ${ratio.toFixed(2)}x Arquero's`);
}
