/**
 * A slow network in front of a loopback server: every request waits a
 * stated time (a round trip plus the server's time for a page) before it is
 * forwarded, the requests in flight are counted as the server sees them,
 * and a storm can be switched on that answers 503 with `Retry-After` to
 * every n-th request. The benches put it in front of the sandbox servers;
 * the politeness tests use it to check the cap and the back-off at the
 * server, not from tidepool's own report.
 */

import { serveLocal } from "../lib/sandbox/_serve.ts";

/** Options of {@linkcode startNetworkGate}. */
export interface NetworkGateOptions {
  /** Milliseconds each request waits before it is forwarded; default 0. */
  delayMs?: number;
  /** Answer 503 to every n-th request (the 3rd, 6th, ...), without forwarding it. */
  unavailableEvery?: number;
  /** The `Retry-After` of those answers, in seconds; default 1. */
  retryAfterSeconds?: number;
  /** Most requests the gate answers; default 100,000 (a runaway loop ends). */
  maxRequests?: number;
  /** When given, each request's times are pushed here as it ends (for a profile). */
  trace?: GateTrace[];
}

/** One request's times at the gate, in `performance.now()` milliseconds. */
export interface GateTrace {
  /** The request's query string. */
  query: string;
  /** When it arrived. */
  arrived: number;
  /** When the delay ended and it was forwarded. */
  forwarded: number;
  /** When the upstream server's answer was read whole. */
  answered: number;
}

/** A running gate: its URL and what it saw. */
export interface NetworkGate {
  /** The gate's base URL; a path below it is forwarded to the same path upstream. */
  readonly url: string;
  /** Requests in flight at the gate now, and the most at once. */
  readonly inFlight: { now: number; max: number };
  /** Requests received, 503s included. */
  readonly requests: number;
  /** Requests answered 503. */
  readonly refused: number;
  /**
   * Requests that arrived while a `Retry-After` the gate had sent was still
   * running, more than `graceMs` after it was sent (requests already on their
   * way when it was sent arrive within the grace).
   */
  early(graceMs: number): number;
  /** Stops the gate. */
  close(): Promise<void>;
}

/**
 * Starts a gate on 127.0.0.1 that forwards to `upstream` after the delay.
 *
 * @param upstream The server's base URL (a loopback sandbox).
 * @param options The delay and the storm.
 * @returns The running gate.
 */
export function startNetworkGate(upstream: string, options: NetworkGateOptions = {}): NetworkGate {
  const delayMs = options.delayMs ?? 0;
  const retryAfter = options.retryAfterSeconds ?? 1;
  const target = new URL(upstream);
  const inFlight = { now: 0, max: 0 };
  const arrivals: number[] = [];
  const pauses: number[] = []; // when each 503 was sent
  let requests = 0;
  let refused = 0;
  const server = serveLocal(async (request) => {
    const n = ++requests;
    arrivals.push(performance.now());
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    try {
      // A busy server refuses at once; a page it serves takes the delay.
      if (options.unavailableEvery && n % options.unavailableEvery === 0) {
        refused++;
        pauses.push(performance.now());
        return new Response("Busy: try again later", {
          status: 503,
          headers: { "retry-after": String(retryAfter) },
        });
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const forwardedAt = performance.now();
      const url = new URL(request.url);
      const forwarded = new URL(url.pathname + url.search, target);
      // As a proxy does, it says which host the client asked, so links name the gate.
      const sent = new Headers(request.headers);
      sent.set("x-forwarded-host", url.host);
      sent.set("x-forwarded-proto", url.protocol.slice(0, -1));
      const answer = await fetch(forwarded, {
        method: request.method,
        headers: sent,
        body: request.method === "GET" || request.method === "HEAD"
          ? undefined
          : await request.arrayBuffer(),
      });
      // Read whole before the slot is freed, as a server that has sent its answer.
      const body = await answer.arrayBuffer();
      options.trace?.push({
        query: url.search,
        arrived: arrivals[n - 1],
        forwarded: forwardedAt,
        answered: performance.now(),
      });
      const headers = new Headers(answer.headers);
      // fetch has decoded the body: its encoding and length are no longer the upstream's.
      headers.delete("content-encoding");
      headers.delete("content-length");
      return new Response(body, { status: answer.status, headers });
    } finally {
      inFlight.now--;
    }
  }, { maxRequests: options.maxRequests ?? 100_000 });
  return {
    url: server.url,
    inFlight,
    get requests() {
      return requests;
    },
    get refused() {
      return refused;
    },
    early(graceMs) {
      let count = 0;
      for (const at of arrivals) {
        if (pauses.some((p) => at > p + graceMs && at < p + retryAfter * 1000 - graceMs)) count++;
      }
      return count;
    },
    close: () => server.close(),
  };
}
