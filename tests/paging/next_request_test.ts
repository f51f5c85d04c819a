/**
 * A walk that knows the next page sends it while it reads the one in hand,
 * even when reading is all synchronous work and the client allows one
 * request at a time: the request must reach the socket before the read
 * ends (Deno writes it only when the event loop turns), so the server works
 * while the client does. The server runs in another process and stamps when
 * each request arrived.
 */

import assert from "node:assert/strict";
import { HttpClient, type HttpResponse } from "../../lib/http/mod.ts";
import { type OffsetCursor, offsetCursor, walkPages } from "../../lib/paging/mod.ts";
import { withChildServer } from "../_child_runs.ts";

const READ_MS = 40;

/** A client of the stamping server that sends one request at a time. */
const oneAtATime = (url: string) =>
  new HttpClient(url, { concurrency: 1, minIntervalMs: 0, progress: false, cache: false });

Deno.test("paging: the next page goes out while a page is read, one request at a time", async () => {
  await withChildServer(new URL("./_stamping_server.ts", import.meta.url), async (url) => {
    const http = oneAtATime(url);
    const readEnds: number[] = [];
    const arrivals: number[] = [];
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
        const body = response.json<{ rows: number[]; total: number; arrived: number }>();
        arrivals.push(body.arrived);
        // A page's worth of synchronous work (parsing, checking, building columns).
        const until = Date.now() + READ_MS;
        while (Date.now() < until) { /* busy */ }
        readEnds.push(Date.now());
        return { rows: body.rows, total: body.total };
      },
    }, http);
    let rows = 0;
    for await (const page of walk) rows += page.rows.length;
    assert.equal(rows, 60);
    // From the second page on (the first names the total that lets the walk
    // predict), each request arrived before the read of the page before it ended.
    const early = arrivals.slice(2).filter((arrived, i) => arrived < readEnds[i + 1] - READ_MS / 2);
    assert.equal(
      early.length,
      arrivals.length - 2,
      `requests arrived ${
        arrivals.slice(2).map((a, i) => a - readEnds[i + 1])
      } ms after the read before them ended`,
    );
  });
});

Deno.test("paging: a page a cursor names goes out before the adapter builds the page before it", async () => {
  // A subgraph walk: the next cursor is the page's last value, known only
  // once the page is read, and the adapter (eager) turns each page into
  // columns as soon as the walk hands it on, with no await of its own.
  await withChildServer(new URL("./_stamping_server.ts", import.meta.url), async (url) => {
    const http = oneAtATime(url);
    const arrivals: number[] = [];
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
        const body = response.json<{ rows: number[]; arrived: number }>();
        arrivals.push(body.arrived);
        const last = body.rows.at(-1);
        return { rows: body.rows, next: body.rows.length === 10 ? last! + 1 : null };
      },
    }, http);
    const buildEnds: number[] = [];
    let rows = 0;
    for await (const page of walk) {
      // The adapter's columns for this page: synchronous work.
      const until = Date.now() + READ_MS;
      while (Date.now() < until) { /* busy */ }
      buildEnds.push(Date.now());
      rows += page.rows.length;
    }
    assert.equal(rows, 60);
    // Each request after the first arrived while the page before it was built.
    const late = arrivals.slice(1)
      .map((arrived, i) => arrived - (buildEnds[i] - READ_MS))
      .filter((after) => after > READ_MS / 2);
    assert.deepEqual(
      late,
      [],
      `requests arrived ${
        arrivals.slice(1).map((a, i) => a - (buildEnds[i] - READ_MS))
      } ms after the build of the page before them began`,
    );
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
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  const seconds = (performance.now() - started) / 1000;
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  assert.equal(new TextDecoder().decode(output.stdout).trim(), "dropped");
  assert.ok(seconds < 10, `the process took ${seconds.toFixed(1)} s to end`);
});
