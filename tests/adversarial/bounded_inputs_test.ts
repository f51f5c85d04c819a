/**
 * Every input has a bound: a query file that never ends (`/dev/zero`), an
 * endless standard input (`--file -`) and a query file past the limit are
 * refused after at most 1 MiB read, before any request. Checked from
 * outside: the child's peak memory read from /proc, its exit code, and a
 * loopback listener that counts the requests it saw.
 */

import assert from "node:assert/strict";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { watchedDeno } from "./_bounded_child.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;
/** A query file is read within 1 MiB; a child that holds 400 MB has followed the input. */
const BOUNDS = { maxRssKb: 400_000, timeLimitMs: 60_000 };

async function sparqlWith(fileArgs: string[], endlessStdin = false) {
  let requests = 0;
  const server = serveLocal(() => (requests++, new Response("{}")), { maxRequests: 5 });
  try {
    const run = await watchedDeno(
      [
        "run",
        "-A",
        "--frozen",
        CLI,
        "sparql",
        `${server.url}/api/acme/dl/letters/sparql`,
        ...fileArgs,
      ],
      { ...BOUNDS, endlessStdin },
    );
    return { ...run, requests };
  } finally {
    await server.close();
  }
}

Deno.test("sparql --file /dev/zero stops at the limit, asking nothing", async () => {
  const run = await sparqlWith(["--file", "/dev/zero"]);
  assert.ok(run.maxRssKb < BOUNDS.maxRssKb, `peak ${run.maxRssKb} KB`);
  assert.equal(run.code, 2, run.out);
  assert.match(run.out, /larger than 1048576 bytes/);
  assert.equal(run.requests, 0);
});

Deno.test("sparql --file - with an endless standard input stops at the limit", async () => {
  const run = await sparqlWith(["--file", "-"], true);
  assert.ok(run.maxRssKb < BOUNDS.maxRssKb, `peak ${run.maxRssKb} KB`);
  assert.equal(run.code, 2, run.out);
  assert.match(run.out, /larger than 1048576 bytes/);
  assert.equal(run.requests, 0);
});

Deno.test("sparql --file with a 2 MiB file is refused before any request", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/big.rq`, `# ${"x".repeat(2 * 1024 * 1024)}\nASK {}`);
    const big = await sparqlWith(["--file", `${dir}/big.rq`]);
    assert.equal(big.code, 2, big.out);
    assert.match(big.out, /larger than 1048576 bytes/);
    assert.equal(big.requests, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
