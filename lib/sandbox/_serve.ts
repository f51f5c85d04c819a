/**
 * Starts a sandbox HTTP server on loopback with an ephemeral port, with a
 * bound on the requests it will answer so a runaway client loop in a test
 * cannot spin forever.
 *
 * @module
 */

/** A running local server. */
export interface LocalServer {
  /** The base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests answered so far. */
  readonly requestCount: number;
  /** Stops the server and waits until it has stopped. */
  close(): Promise<void>;
  /** Same as close, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@linkcode serveLocal}. */
export interface ServeLocalOptions {
  /** Most requests answered before the server answers 503 to everything. Default 1,000,000. */
  maxRequests?: number;
}

/**
 * Serves a handler on 127.0.0.1 with port 0.
 *
 * @param handler Answers one request.
 * @param options The request bound.
 * @returns The running server.
 *
 * @example A server that answers every request
 * ```ts
 * const server = serveLocal(() => new Response("ok"));
 * await server.close();
 * ```
 */
export function serveLocal(
  handler: (request: Request) => Response | Promise<Response>,
  options: ServeLocalOptions = {},
): LocalServer {
  const maxRequests = options.maxRequests ?? 1_000_000;
  let count = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      count++;
      if (count > maxRequests) {
        return new Response("Sandbox request limit reached", { status: 503 });
      }
      try {
        return await handler(request);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        return new Response(`Sandbox handler failed: ${text}`, { status: 500 });
      }
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.shutdown());
  return {
    url,
    get requestCount() {
      return count;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
