/**
 * `Subgraph.orders()` over 12,000 and 100,000 orders of the sandbox
 * subgraph, against the floor (the same cursor requests sent with bare
 * `fetch` + `JSON.parse`, no table) and against a `skip`-paged loop (which
 * The Graph stops at skip 5,000, so it never reaches more than 6,000 rows).
 *
 * Run: deno run -A --frozen bench/subgraph_bench.ts
 */

import { serveSubgraph } from "../lib/sandbox/subgraph/mod.ts";
import { Subgraph } from "../lib/subgraph/mod.ts";
import { measure } from "./_measure.ts";

const SIZES = Deno.args.length ? Deno.args.map(Number) : [12_000, 100_000];

for (const size of SIZES) {
  const seeded = performance.now();
  const sandbox = serveSubgraph({ orders: size });
  const seedMs = performance.now() - seeded;
  try {
    // Record the exact requests tidepool sends, for the floor to replay.
    const bodies: string[] = [];
    const recorder = new Subgraph(sandbox.endpoint, {
      progress: false,
      fetch: (input, init) => {
        if (typeof init?.body === "string") bodies.push(init.body);
        return fetch(input, init);
      },
    });
    const rows = (await recorder.orders()).numRows();
    if (rows !== size) throw new Error(`orders() read ${rows} of ${size} rows`);
    const sg = new Subgraph(sandbox.endpoint, { progress: false });

    const floor = async () => {
      let n = 0;
      for (const body of bodies) {
        const response = await fetch(sandbox.endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        n += (JSON.parse(await response.text()).data.rows as unknown[]).length;
      }
      return n;
    };
    let skipRows = 0;
    let skipStop = "";
    const skipLoop = async () => {
      let n = 0;
      for (let skip = 0;; skip += 1000) {
        const response = await fetch(sandbox.endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query: "query($skip: Int!) { orders(first: 1000, skip: $skip, " +
              "orderBy: createdTimestamp) { id tx createdTimestamp consumer { id } payer { id } " +
              "datatoken { id address symbol } consumerMarketToken { address symbol } " +
              "serviceIndex providerFee reuses(first: 1000) { id } } }",
            variables: { skip },
          }),
        });
        const body = JSON.parse(await response.text());
        if (body.errors) {
          skipStop = body.errors[0].message;
          break;
        }
        n += body.data.orders.length;
        if (body.data.orders.length < 1000) break;
      }
      skipRows = n;
      return n;
    };

    const medians = await measure([
      { name: "tidepool orders() (table, typed)", run: () => sg.orders() },
      { name: "floor: same requests, fetch+JSON.parse", run: floor },
      { name: "skip-paged loop, fetch+JSON.parse", run: skipLoop },
    ], size > 50_000 ? 3 : 5);

    console.log(
      `\norders: ${size.toLocaleString("en-US")} rows, ${bodies.length} requests ` +
        `(sandbox seeded in ${seedMs.toFixed(0)} ms; median of rounds)`,
    );
    const floorMs = medians["floor: same requests, fetch+JSON.parse"];
    for (const [name, ms] of Object.entries(medians)) {
      const n = name.startsWith("skip") ? skipRows : size;
      const rate = Math.round((n / ms) * 1000).toLocaleString("en-US");
      console.log(
        `  ${name.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms ${rate.padStart(10)} rows/s ` +
          `${(ms / floorMs).toFixed(2)}x floor  (${n.toLocaleString("en-US")} rows)`,
      );
    }
    console.log(`  skip loop stopped: ${skipStop || "short page"}`);
  } finally {
    await sandbox.close();
  }
}
