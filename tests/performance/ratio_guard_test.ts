/**
 * The regression guard of issues 34 and 43: a small size of each read
 * against its floor (the same requests with bare `fetch` and a parser,
 * results kept), in paired runs A B, B A in this process with the servers
 * in another. A read fails when its best run passes its limit times the
 * floor's best in CPU time, in every one of three attempts.
 *
 * CPU time, not wall time: what other processes do on the machine shows in
 * the wall clock of both sides unevenly (two CPU-bound processes beside the
 * guard moved the wall-clock median of the expression pairs from 1.0x to
 * 1.55x), and a read that streams overlaps its parsing with the server's
 * sending by a share that depends on the machine (the SPARQL JSON read took
 * 0.83x its floor's wall time here and 2.2x on another machine of the same
 * kind). The CPU this process spends is the read's own work. Ratios, not
 * times, so a slow machine slows both sides. Sizes are small;
 * `deno task bench` measures the full sizes.
 */

import assert from "node:assert/strict";
import process from "node:process";
import { XMLParser } from "fast-xml-parser";
import { SaxesParser } from "saxes";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { Archive } from "../../lib/archive/mod.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";
import { withChildServer } from "../_child_runs.ts";
import { importRatio, SERVICE_ENTRY_POINTS } from "./_import_ratio.ts";
import { loadAverage, median } from "../../bench/_compare.ts";

/**
 * Each read's CPU ratio to its floor on the CI machine (AMD EPYC, 2 cores;
 * the best of 15 pairs, measured quiet and beside other work: bench/RESULTS.md,
 * "Issue 43"). A read's limit is 1.45 times it, the geometric middle of the
 * ratio and twice the ratio: a machine on which the read does up to 1.45x
 * worse against the floor than here still passes, and the read made twice
 * as slow fails anywhere it does no better than 1.45x better than here. The
 * expression read keeps typed columns, de-duplicates ids and traces each
 * page for provenance, which its floor does not; the OAI-PMH floor's parser
 * (fast-xml-parser) costs twice what tidepool's streaming reader does.
 */
const MEASURED = {
  expressions: 2.3,
  "sparql json": 0.95,
  "sparql xml": 1.05,
  "oai harvest": 0.52,
  "subgraph orders": 1.45,
} as const;
type ReadName = keyof typeof MEASURED;
const limitOf = (name: ReadName) => Math.round(MEASURED[name] * 1.45 * 100) / 100;
const ROUNDS = 15;
/** Import rounds: each is a fresh process, and the ratios spread little (2.15x to 2.35x at load 9). */
const IMPORT_ROUNDS = 9;
/** A read over the limit is measured again, up to this many times in all, before it fails. */
const ATTEMPTS = 3;
const QUERY = "SELECT * WHERE { ?s ?p ?o }";

interface Servers {
  expressions: string;
  oai: string;
  subgraph: string;
  sparql: string;
}

/** The CPU time this process has spent (user and system, every thread), milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface PairedRatio {
  /** Tidepool's best CPU time over the floor's best. */
  ratio: number;
  /** Each round's tidepool time over the floor's. */
  ratios: number[];
  rows: [number, number];
}

/**
 * Runs floor and tidepool once each to warm, then `ROUNDS` pairs (A B, then
 * B A), each timed in CPU. The ratio is the fastest tidepool run over the
 * fastest floor run: the best of each side is the one least slowed by other
 * work (a collection, a neighbour sharing the core's caches). The paired
 * ratios are printed beside it.
 */
async function pairedRatio(
  floor: () => Promise<number>,
  tidepool: () => Promise<number>,
): Promise<PairedRatio> {
  const rows: [number, number] = [await floor(), await tidepool()];
  const ratios: number[] = [];
  const best = [Infinity, Infinity];
  for (let round = 0; round < ROUNDS; round++) {
    const times = [0, 0];
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      const started = cpuMs();
      await (side === 0 ? floor() : tidepool());
      times[side] = cpuMs() - started;
      best[side] = Math.min(best[side], times[side]);
    }
    ratios.push(times[1] / times[0]);
  }
  return { ratio: best[1] / best[0], ratios, rows };
}

/** What the guard decides of one read: the attempts it measured, and whether one was within the limit. */
interface Verdict {
  within: boolean;
  attempts: PairedRatio[];
}

/**
 * Measures `tidepool` against `floor` until an attempt is within `limit`,
 * at most `ATTEMPTS` times, printing each attempt.
 */
async function guard(
  name: string,
  limit: number,
  floor: () => Promise<number>,
  tidepool: () => Promise<number>,
): Promise<Verdict> {
  const attempts: PairedRatio[] = [];
  while (attempts.length < ATTEMPTS) {
    const result = await pairedRatio(floor, tidepool);
    attempts.push(result);
    console.log(
      `${name}: best ${
        result.ratio.toFixed(2)
      }x the floor's best in CPU time (limit ${limit}x), pairs' median ${
        median(result.ratios).toFixed(2)
      }x (rounds: ${roundsText(result)}; attempt ${attempts.length}; load ${loadAverage()})`,
    );
    // The floor sends the same requests (the subgraph's pages overlap at their seams).
    assert.ok(
      result.rows[1] > 0 && result.rows[0] >= result.rows[1],
      `${name}: rows ${result.rows}`,
    );
    if (result.ratio <= limit) return { within: true, attempts };
  }
  return { within: false, attempts };
}

function roundsText(result: PairedRatio): string {
  return result.ratios.map((r) => r.toFixed(2)).join(", ");
}

async function assertWithin(
  name: ReadName,
  floor: () => Promise<number>,
  tidepool: () => Promise<number>,
): Promise<void> {
  const limit = limitOf(name);
  const verdict = await guard(name, limit, floor, tidepool);
  assert.ok(
    verdict.within,
    `${name}: in each of ${ATTEMPTS} attempts its best run took more than ${limit}x the floor's best CPU time (${
      verdict.attempts.map((a) => `${a.ratio.toFixed(2)}x, rounds ${roundsText(a)}`).join("; ")
    })`,
  );
}

function withServers(run: (servers: Servers) => Promise<void>): Promise<void> {
  return withChildServer(
    new URL("./_guard_servers.ts", import.meta.url),
    (line) => run(JSON.parse(line)),
  );
}

const client = { progress: false, cache: false } as const;

/** One read of the guard: the floor and tidepool, each returning the rows it kept. */
interface Read {
  floor: () => Promise<number>;
  tidepool: () => Promise<number>;
}

function expressionsRead(servers: Servers): Read {
  const page = async (offset: number) =>
    JSON.parse(
      await (await fetch(`${servers.expressions}/api/expressions?limit=100&offset=${offset}`))
        .text(),
    );
  return {
    floor: async () => {
      const kept: unknown[][] = [];
      let total = Infinity;
      for (let offset = 0; offset < total; offset += 100) {
        const body = await page(offset);
        total = body.total;
        kept.push(body.hits);
      }
      return kept.reduce((n, hits) => n + hits.length, 0);
    },
    tidepool: async () =>
      (await new ExpressionSearch(servers.expressions, {
        ...client,
        minIntervalMs: 0,
        concurrency: 1,
        pageSize: 100,
      }).searchAll()).numRows(),
  };
}

function sparqlRead(servers: Servers, format: "json" | "xml"): Read {
  const endpoint = `${servers.sparql}/api/guard/dl/${format}/sparql`;
  return {
    floor: async () => {
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
    tidepool: async () => {
      const archive = new Archive(servers.sparql, { ...client, account: "guard", db: format });
      const table = await archive.sparql(QUERY, { service: "dl", method: "GET", format });
      return typeof table === "boolean" ? 0 : table.numRows();
    },
  };
}

function oaiRead(servers: Servers): Read {
  return {
    floor: async () => {
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
    tidepool: async () =>
      (await new OaiPmh(servers.oai, client).harvest({ metadataPrefix: "oai_dc" })).numRows(),
  };
}

/** The floor sends tidepool's own requests, recorded once. */
async function subgraphRead(servers: Servers): Promise<Read> {
  const bodies: string[] = [];
  await new Subgraph(servers.subgraph, {
    ...client,
    fetch: (input, init) => {
      if (typeof init?.body === "string") bodies.push(init.body);
      return fetch(input, init);
    },
  }).orders();
  return {
    floor: async () => {
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
    tidepool: async () => (await new Subgraph(servers.subgraph, client).orders()).numRows(),
  };
}

Deno.test("every read stays within its limit of its floor in CPU time (paired runs, small sizes)", async (t) => {
  await withServers(async (servers) => {
    const reads: [string, ReadName, () => Promise<Read> | Read][] = [
      ["expression searchAll, one page at a time", "expressions", () => expressionsRead(servers)],
      ["SPARQL SELECT, json", "sparql json", () => sparqlRead(servers, "json")],
      ["SPARQL SELECT, xml", "sparql xml", () => sparqlRead(servers, "xml")],
      ["OAI-PMH harvest, oai_dc", "oai harvest", () => oaiRead(servers)],
      ["subgraph orders()", "subgraph orders", () => subgraphRead(servers)],
    ];
    for (const [step, name, read] of reads) {
      await t.step(step, async () => {
        const { floor, tidepool } = await read();
        await assertWithin(name, floor, tidepool);
      });
    }
  });
});

/**
 * The guard can fail: the SPARQL JSON read made three times as slow (the
 * same read done three times, every row kept) is over the limit in every
 * attempt. Three times, not two, so that this test cannot fail on a loaded
 * machine's noise (beside other work a 2x read once measured 1.18x in one
 * attempt); that a build slowed 2x fails is shown in bench/RESULTS.md
 * ("Issue 43"). Without this, a guard whose measure had drifted loose would
 * pass forever.
 */
Deno.test("the guard fails a read made three times as slow", async () => {
  await withServers(async (servers) => {
    const { floor, tidepool } = sparqlRead(servers, "json");
    const slowed = async () => {
      const rows = await tidepool();
      await tidepool();
      await tidepool();
      return rows;
    };
    const verdict = await guard(
      "sparql json, slowed 3x on purpose",
      limitOf("sparql json"),
      floor,
      slowed,
    );
    assert.equal(verdict.within, false, "a read three times as slow passed the guard");
    assert.equal(verdict.attempts.length, ATTEMPTS);
  });
});

/**
 * Importing mod.ts against importing Arquero alone, in one fresh process a
 * round: Arquero first, then mod.ts, whose import then costs only what it
 * adds, so the ratio (Arquero + the rest) / Arquero pairs two times of the
 * same process. (Two processes a round gave ratios of 1.7x to 3.2x in one
 * CI run.) In CPU time, which counts the threads that read and compile the
 * module graph beside the main one, mod.ts measured 2.07x to 2.13x (1.54x to
 * 1.70x on the wall clock) whether the machine was quiet or at load 12; this
 * guard fails at 3.0x, which a heavy package at import passes (viem beside
 * mod.ts made it 4.0x). Whether the reads' code stays out of the import is
 * tests/packaging/eager_imports_test.ts's to say: it names the files.
 */
Deno.test("importing mod.ts stays within 3.0x of importing Arquero in CPU time", async () => {
  await assertImportWithin("mod.ts", new URL("../../mod.ts", import.meta.url).href, 3.0);
});

/**
 * A script that uses one service imports its entry point (deno.json
 * "exports"), which reaches far fewer files than mod.ts: 1.32x to 1.35x
 * Arquero's import in CPU time for ./expressions and ./subgraph, 1.47x to
 * 1.52x for ./ocean and ./archive. It fails at 2.2x (1.45 times the
 * highest), which a heavy package loaded at import passes.
 */
Deno.test("importing one service's entry point stays within 2.2x of importing Arquero in CPU time", async (t) => {
  for (const service of SERVICE_ENTRY_POINTS) {
    await t.step(`./${service}`, async () => {
      const spec = new URL(`../../lib/${service}/mod.ts`, import.meta.url).href;
      await assertImportWithin(`./${service}`, spec, 2.2);
    });
  }
});

/**
 * The median of `IMPORT_ROUNDS` paired import ratios of `spec` in CPU time,
 * printed, must stay within `limit` in one of `ATTEMPTS` attempts.
 */
async function assertImportWithin(name: string, spec: string, limit: number): Promise<void> {
  await importRatio(spec); // a first run may transpile; no round pays for it
  const medians: number[] = [];
  while (medians.length < ATTEMPTS) {
    const ratios: number[] = [];
    for (let i = 0; i < IMPORT_ROUNDS; i++) ratios.push(await importRatio(spec, {}, "cpu"));
    medians.push(median(ratios));
    console.log(
      `import: ${name} ${medians.at(-1)!.toFixed(2)}x Arquero in CPU time (rounds: ${
        ratios.map((r) => r.toFixed(2)).join(", ")
      }; attempt ${medians.length}; load ${loadAverage()})`,
    );
    if (medians.at(-1)! <= limit) return;
  }
  assert.fail(
    `importing ${name} took more than ${limit}x Arquero's CPU time in each of ${ATTEMPTS} attempts (medians ${
      medians.map((r) => r.toFixed(2)).join(", ")
    })`,
  );
}
