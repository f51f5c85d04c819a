/**
 * A loopback server whose routes inject the faults the HTTP client must
 * survive. It counts requests per path and records when they arrived.
 */

import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { Counter, HOLD_BOUND_MS, type HoldEnd, holdUntilAborted, within } from "../_events.ts";

export interface FaultServer {
  url: string;
  /** A raw TCP server whose first answer per connection promises 1,000 bytes and stops after 13. */
  cutUrl: string;
  /** Connections the raw server accepted. */
  cutHits: () => number;
  /** Requests received per path. */
  hits: Map<string, number>;
  /** Arrival times (ms) per path. */
  times: Map<string, number[]>;
  /** Requests in flight now and the most seen at once. */
  inFlight: { now: number; max: number };
  /** Headers of the last request per path. */
  lastHeaders: Map<string, Headers>;
  /** Counts the requests of `path` as they arrive, to wait for the n-th one. */
  arrivals(path: string): Counter;
  /** How each request to `/hang` ended: cancelled by the client, or held to its bound. */
  hangEnds: HoldEnd[];
  /** Counts the ends of `/hang` requests, to wait for the n-th. */
  hangEnded: Counter;
  close(): Promise<void>;
}

/** The body of the huge route, in bytes. */
export const HUGE_BYTES = 64 * 1024;

/** How many requests the `/slow` route expects in all. */
export const SLOW_REQUESTS = 8;

export function startFaultServer(): FaultServer {
  const hits = new Map<string, number>();
  const times = new Map<string, number[]>();
  const lastHeaders = new Map<string, Headers>();
  const inFlight = { now: 0, max: 0 };
  const counters = new Map<string, Counter>();
  const arrivals = (path: string) => {
    if (!counters.has(path)) counters.set(path, new Counter());
    return counters.get(path)!;
  };
  const hangEnds: HoldEnd[] = [];
  const hangEnded = new Counter();
  const count = (path: string) => {
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    times.set(path, [...(times.get(path) ?? []), Date.now()]);
    return n;
  };
  const server = serveLocal(async (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    const n = count(path);
    lastHeaders.set(path, request.headers);
    arrivals(path).add();
    switch (path) {
      case "/ok":
        return Response.json({ ok: true, n, q: url.searchParams.get("q") });
      case "/flaky-503":
        return n === 1
          ? new Response("Service Unavailable", { status: 503 })
          : Response.json({ ok: true, n });
      case "/always-503":
        return new Response("down for maintenance", { status: 503 });
      case "/retry-after":
        return n === 1
          ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } })
          : Response.json({ ok: true, n });
      case "/retry-after-hour":
        return new Response("come back in an hour", {
          status: 429,
          headers: { "retry-after": "3600" },
        });
      case "/retry-after-date":
        return n === 1
          ? new Response("slow down", {
            status: 503,
            headers: { "retry-after": new Date(Date.now() + 2000).toUTCString() },
          })
          : Response.json({ ok: true, n });
      case "/rate-limit-body":
        return n === 1
          ? new Response("Rate limit exceeded. Try again in 1 seconds.", { status: 429 })
          : Response.json({ ok: true, n });
      case "/hang":
        // Answers only after the bound: a client's timeout or abort is the way out.
        hangEnds.push(await holdUntilAborted(request.signal));
        hangEnded.add();
        return new Response("too late");
      case "/challenge":
        return new Response("", { status: 403, headers: { "cf-mitigated": "challenge" } });
      case "/challenge-page":
        return new Response(
          "<!DOCTYPE html><html><head><title>Just a moment...</title></head>" +
            '<body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page"></script></body></html>',
          { status: 403, headers: { "content-type": "text/html; charset=UTF-8" } },
        );
      case "/stall-body": {
        // Half a body, then silence (the connection stays open) until the
        // bound, when it ends: a client that never cuts it reads an end, not an error.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("first half;"));
            timer = setTimeout(() => controller.close(), HOLD_BOUND_MS);
          },
          cancel() {
            clearTimeout(timer);
          },
        });
        return new Response(stream);
      }
      case "/challenge-503":
        return new Response("<html><title>Just a moment...</title></html>", {
          status: 503,
          headers: { "content-type": "text/html", "cf-mitigated": "challenge" },
        });
      case "/two-megabytes":
        return new Response(new Uint8Array(2 * 1024 * 1024));
      case "/huge":
        return new Response("x".repeat(HUGE_BYTES));
      case "/huge-chunked": {
        const chunk = new TextEncoder().encode("y".repeat(1024));
        let sent = 0;
        const stream = new ReadableStream({
          pull(controller) {
            if (sent >= HUGE_BYTES) return controller.close();
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        });
        return new Response(stream);
      }
      case "/json-string-error":
        return new Response(JSON.stringify("Cannot start compute job: cpu 5 exceeds 2"), {
          status: 400,
          headers: { "content-type": "application/json" },
        });
      case "/object-error":
        return Response.json({ error: "duplicate slug: letter-001" }, { status: 409 });
      case "/echo-secret":
        // A careless server that repeats the credentials it was sent.
        return new Response(
          `bad signature ${url.searchParams.get("signature")} for ${
            request.headers.get("authorization")
          }`,
          { status: 401 },
        );
      case "/not-found":
        return new Response("DDO not found", { status: 404 });
      case "/slow": {
        inFlight.now++;
        inFlight.max = Math.max(inFlight.max, inFlight.now);
        // Held until a second request is in flight beside it (or the last has come),
        // so a client that sends two at once is seen with two in flight however
        // loaded the machine; then 60 ms more, for a third it should not send.
        if (inFlight.now < 2 && n < SLOW_REQUESTS) {
          await within(arrivals(path).reached(n + 1), undefined);
        }
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight.now--;
        return Response.json({ ok: true, n });
      }
      case "/counter":
        return Response.json({ n });
      case "/post":
        return Response.json({ body: await request.text(), n });
      default:
        return new Response("no such route", { status: 404 });
    }
  });
  const cut = startCutServer();
  return {
    url: server.url,
    cutUrl: cut.url,
    cutHits: () => cut.hits,
    hits,
    times,
    inFlight,
    lastHeaders,
    arrivals,
    hangEnds,
    hangEnded,
    close: async () => {
      cut.close();
      await server.close();
    },
  };
}

/**
 * A raw TCP server: the first connection gets headers promising 1,000 bytes,
 * 13 bytes of body, and a closed socket; later connections get a whole answer.
 */
function startCutServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const state = { hits: 0 };
  const encoder = new TextEncoder();
  (async () => {
    for await (const connection of listener) {
      state.hits++;
      const first = state.hits === 1;
      (async () => {
        const buffer = new Uint8Array(4096);
        await connection.read(buffer).catch(() => null);
        const body = first ? '{"partial": "' : '{"ok":true,"n":2}';
        const length = first ? 1000 : body.length;
        await connection.write(encoder.encode(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n` +
            `connection: close\r\n\r\n${body}`,
        )).catch(() => 0);
        connection.close();
      })();
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    get hits() {
      return state.hits;
    },
    close: () => listener.close(),
  };
}
