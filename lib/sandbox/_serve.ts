/**
 * Starts a sandbox HTTP server on loopback with an ephemeral port, with a
 * bound on the requests it will answer so a runaway client loop in a test
 * cannot spin forever.
 *
 * @module
 */

import { markLocalService } from "../http/local_services.ts";
import { warnWhenRecording } from "./_recording_warning.ts";

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
  /**
   * The port to listen on when it is free, else an ephemeral one. Default 0
   * (ephemeral). A recording of the sandbox passes the port it recorded, so
   * its answers stay at the address their cache keys name.
   */
  port?: number;
}

/**
 * Serves a handler on 127.0.0.1 with port 0 (or the port asked for, when free).
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
  warnWhenRecording();
  const maxRequests = options.maxRequests ?? 1_000_000;
  let count = 0;
  const handle = async (request: Request) => {
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
  };
  const listen = (port: number) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handle);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen(options.port ?? 0);
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    server = listen(0);
  }
  const url = `http://127.0.0.1:${server.addr.port}`;
  // Clients of this process leave out the polite interval for it.
  const unmark = markLocalService(url);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.shutdown().finally(unmark));
  return {
    url,
    get requestCount() {
      return count;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Adds a sandbox's own fields (its data, fault switches, methods) to a
 * running server, keeping `url`, `requestCount` and `close` live. Getters
 * in `extras` stay getters; a `close` in `extras` replaces the server's (and
 * `Symbol.asyncDispose` follows it).
 *
 * @param server The running server.
 * @param extras The fields to add.
 * @returns The same server object, with the fields.
 *
 * @example A server that also exposes its data
 * ```ts
 * const server = extendServer(serveLocal(() => new Response("ok")), { rows: [1, 2] });
 * console.log(server.rows.length);
 * await server.close();
 * ```
 */
export function extendServer<T extends object>(server: LocalServer, extras: T): LocalServer & T {
  Object.defineProperties(server, Object.getOwnPropertyDescriptors(extras));
  const close = (server as { close: () => Promise<void> }).close;
  Object.defineProperty(server, Symbol.asyncDispose, { value: close, configurable: true });
  return server as LocalServer & T;
}
