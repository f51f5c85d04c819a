/**
 * A walk that knows the next page sends it while it reads the one in hand,
 * even when reading is all synchronous work and the client allows one
 * request at a time: the request must reach the socket before the read
 * ends (Deno writes it only when the event loop turns), so the server works
 * while the client does. The server runs in another process and marks each
 * request as it arrives; the synchronous read waits for the mark of the next
 * request, which can come only if that request was written before the read
 * began.
 */

import assert from "node:assert/strict";
import { HttpClient, type HttpResponse } from "../../lib/http/mod.ts";
import { type OffsetCursor, offsetCursor, walkPages } from "../../lib/paging/mod.ts";
import { withChildServer } from "../_child_runs.ts";

/**
 * The longest a synchronous read waits for the server's mark. The server
 * marks a request within milliseconds of its write, a loaded machine within
 * a few hundred; only a request never written (the read began first) waits
 * this out, and the test fails on it.
 */
const MARK_BOUND_MS = 10_000;

/** A client of the stamping server that sends one request at a time. */
const oneAtATime = (url: string) =>
  new HttpClient(url, { concurrency: 1, minIntervalMs: 0, progress: false, cache: false });

/**
 * Synchronous work that lasts until the server has marked the request for
 * `offset` (or the bound passed): nothing else in this process runs meanwhile.
 *
 * @returns Whether the mark came.
 */
function busyUntilMarked(dir: string, offset: number): boolean {
  const until = Date.now() + MARK_BOUND_MS;
  while (Date.now() < until) {
    try {
      Deno.statSync(`${dir}/${offset}`);
      return true;
    } catch { /* not yet */ }
  }
  return false;
}

/** Runs `body` with the stamping server's URL and its marks folder. */
function withStampingServer(body: (url: string, dir: string) => Promise<void>) {
  return withChildServer(new URL("./_stamping_server.ts", import.meta.url), (line) => {
    const [url, dir] = line.split(" ");
    return body(url, dir);
  });
}

Deno.test("paging: the next page goes out while a page is read, one request at a time", async () => {
  await withStampingServer(async (url, dir) => {
    const http = oneAtATime(url);
    const reads: string[] = [];
    const walk = walkPages<OffsetCursor, HttpResponse, number>({
      label: "stamped rows",
      cursor: offsetCursor(10),
      readAhead: 1,
      eager: true,
      fetch: (cursor, signal) =>
        http.request({
          path: "/rows",
          query: { offset: cursor.offset, limit: cursor.limit },
          signal,
        }),
      read(response) {
        const body = response.json<{ rows: number[]; total: number }>();
        const offset = body.rows[0];
        // From the second page on (the first names the total that lets the walk
        // predict), the next request reaches the server during this synchronous read.
        const next = offset + 10;
        if (offset >= 10 && next < body.total) {
          reads.push(`${offset}: ${busyUntilMarked(dir, next) ? "next arrived" : "next unsent"}`);
        }
        return { rows: body.rows, total: body.total };
      },
    }, http);
    let rows = 0;
    for await (const page of walk) rows += page.rows.length;
    assert.equal(rows, 60);
    assert.deepEqual(reads, [10, 20, 30, 40].map((offset) => `${offset}: next arrived`));
  });
});

Deno.test("paging: a page a cursor names goes out before the adapter builds the page before it", async () => {
  // A subgraph walk: the next cursor is the page's last value, known only
  // once the page is read, and the adapter (eager) turns each page into
  // columns as soon as the walk hands it on, with no await of its own.
  await withStampingServer(async (url, dir) => {
    const http = oneAtATime(url);
    const walk = walkPages<number, HttpResponse, number>({
      label: "stamped rows",
      cursor: {
        name: "value",
        first: 0,
        key: String,
        advance: (_cursor, page) => page.next ?? null,
      },
      eager: true,
      fetch: (offset, signal) =>
        http.request({ path: "/rows", query: { offset, limit: 10 }, signal }),
      read(response) {
        const body = response.json<{ rows: number[] }>();
        const last = body.rows.at(-1);
        return { rows: body.rows, next: body.rows.length === 10 ? last! + 1 : null };
      },
    }, http);
    const builds: string[] = [];
    let rows = 0;
    for await (const page of walk) {
      // The adapter's columns for this page: synchronous work, during which the
      // request for the next page reaches the server.
      if (page.rows.length === 10) {
        const next = page.rows.at(-1)! + 1;
        builds.push(`${next}: ${busyUntilMarked(dir, next) ? "arrived" : "unsent"}`);
      }
      rows += page.rows.length;
    }
    assert.equal(rows, 60);
    assert.deepEqual(builds, [10, 20, 30, 40, 50, 60].map((next) => `${next}: arrived`));
  });
});

Deno.test("paging: a walk its caller drops half way does not keep the process alive", async () => {
  const walks = new URL("../../lib/paging/mod.ts", import.meta.url).href;
  const script = `
    import { offsetCursor, walkPages } from ${JSON.stringify(walks)};
    const walk = walkPages({
      label: "dropped",
      cursor: offsetCursor(10),
      readAhead: 2,
      eager: true,
      fetch: (c) => Promise.resolve(Array.from({ length: 10 }, (_, i) => c.offset + i)),
      read: (rows) => ({ rows, total: 1000 }),
    }, { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} });
    await walk.next();
    await walk.next();
    console.log("dropped");
  `;
  // The process ends about a second after the walk is dropped (the turn's idle
  // check), plus Deno's start, a few seconds on a loaded machine; a walk that
  // keeps it alive never ends, and is killed at the bound.
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const seconds = (performance.now() - started) / 1000;
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout).trim(), "dropped");
  assert.ok(seconds < 30, `the process took ${seconds.toFixed(1)} s to end`);
});

Deno.test("paging: on demand, a walk held between pages sends nothing until the next is asked for", async () => {
  const sent: string[] = [];
  const reporter = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };
  /** A list of three pages whose cursor each page names, as an OAI-PMH token. */
  const walkOf = (onDemand: boolean) =>
    walkPages<string, string, string>({
      label: "tokens",
      cursor: {
        name: "token",
        first: "a",
        key: (t) => t,
        advance: (_t, page) => page.next ?? null,
      },
      onDemand,
      fetch: (token) => {
        sent.push(token);
        return Promise.resolve(token);
      },
      read: (token) => ({ rows: [token], next: token === "c" ? null : token === "a" ? "b" : "c" }),
    }, reporter);
  /** Turns of the event loop, each a macrotask: the default walk sends its next page after one. */
  const turns = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  };

  // The default, for contrast: the next page goes out after the caller's turn.
  const ahead = walkOf(false);
  await ahead.next();
  await turns(5);
  assert.deepEqual(sent, ["a", "b"]);
  await ahead.return(undefined as never);

  sent.length = 0;
  const held = walkOf(true);
  assert.deepEqual((await held.next()).value?.rows, ["a"]);
  await turns(5);
  assert.deepEqual(sent, ["a"], "a held walk sent a request");
  assert.deepEqual((await held.next()).value?.rows, ["b"]);
  await turns(5);
  assert.deepEqual(sent, ["a", "b"]);
  assert.deepEqual((await held.next()).value?.rows, ["c"]);
  assert.equal((await held.next()).done, true);
  assert.deepEqual(sent, ["a", "b", "c"]);
});
