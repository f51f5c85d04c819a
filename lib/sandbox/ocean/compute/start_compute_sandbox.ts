import { type LocalServer, serveLocal } from "../../_serve.ts";
import {
  type ComputeHandlersOptions,
  type ComputeRoutes,
  createComputeHandlers,
} from "./create_compute_handlers.ts";

/** A running compute sandbox: the server and the routes' state. */
export interface ComputeSandbox extends LocalServer {
  /** The routes, with the engine, nonces, faults, orders and request log. */
  readonly routes: ComputeRoutes;
}

/**
 * Serves the compute and file-access routes on 127.0.0.1 (port 0) with the
 * nonce and computeEnvironments endpoints, for tests and benchmarks that do
 * not need the whole node sandbox. Close it when done.
 *
 * @param options The options of the routes.
 * @returns The running sandbox.
 *
 * @example Starting and stopping the sandbox
 * ```ts
 * const sandbox = startComputeSandbox({ stepMs: 10 });
 * try {
 *   const response = await fetch(`${sandbox.url}/api/services/computeEnvironments`);
 *   console.log((await response.json()).length); // 1
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export function startComputeSandbox(options: ComputeHandlersOptions = {}): ComputeSandbox {
  const routes = createComputeHandlers(options);
  const server = serveLocal(async (request) => {
    const answer = await routes(request);
    return answer ?? new Response("Not found", { status: 404 });
  });
  return Object.assign(server, { routes });
}
