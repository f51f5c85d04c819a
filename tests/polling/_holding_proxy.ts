/**
 * A loopback proxy in front of a sandbox that forwards every request except
 * the ones picked as "held": those get no answer until the client gives up,
 * so a test can abort a poll while its request is in flight and see that the
 * request was cancelled (the server sees the client leave).
 */

import { serveLocal } from "../../lib/sandbox/_serve.ts";

export interface HoldingProxy {
  /** The proxy's base URL. */
  url: string;
  /** Resolves when the first held request arrives. */
  held: Promise<void>;
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
  const server = serveLocal(async (request) => {
    const url = new URL(request.url);
    if (hold(url, request.method)) {
      arrived();
      // Bounded: the test aborts well before this.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        request.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          cancelled++;
          resolve();
        }, { once: true });
      });
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
    get cancelled() {
      return cancelled;
    },
    close: () => server.close(),
  };
}
