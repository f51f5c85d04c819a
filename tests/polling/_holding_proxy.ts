/**
 * A loopback proxy in front of a sandbox that forwards every request except
 * the ones picked as "held": those get no answer until the client gives up,
 * so a test can abort a poll while its request is in flight and see that the
 * request was cancelled (the server sees the client leave).
 */

import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { type HoldEnd, holdUntilAborted } from "../_events.ts";

export interface HoldingProxy {
  /** The proxy's base URL. */
  url: string;
  /** Resolves when the first held request arrives. */
  held: Promise<void>;
  /** Resolves with how the first held request ended: its client left, or the bound passed. */
  released: Promise<HoldEnd>;
  /** Held requests whose client went away (aborted). */
  readonly cancelled: number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` that holds the requests `hold` picks. */
export function startHoldingProxy(
  target: string,
  hold: (url: URL, method: string) => boolean,
): HoldingProxy {
  let cancelled = 0;
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => arrived = resolve);
  let release!: (end: HoldEnd) => void;
  const released = new Promise<HoldEnd>((resolve) => release = resolve);
  const server = serveLocal(async (request) => {
    const url = new URL(request.url);
    if (hold(url, request.method)) {
      arrived();
      // Only a client that never cancels waits out the bound (see HOLD_BOUND_MS).
      const end = await holdUntilAborted(request.signal);
      if (end === "aborted") cancelled++;
      release(end);
      return new Response("held", { status: 503 });
    }
    const answer = await fetch(`${target}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: "manual",
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  }, { maxRequests: 200 });
  return {
    url: server.url,
    held,
    released,
    get cancelled() {
      return cancelled;
    },
    close: () => server.close(),
  };
}
