/**
 * Chain reads sent through tidepool's own HTTP client instead of viem's, so
 * they are recorded and replayed like every other service's answers: a
 * notebook that reads orders from the chain replays them offline. Only reads
 * go this way; transactions keep viem's transport and are never recorded.
 *
 * @module
 */

import type { EIP1193RequestFn } from "viem";
import { HttpClient } from "../../http/client.ts";
import type { CacheOptions } from "../../http/cache.ts";

/** A JSON-RPC answer as nodes send it. */
interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A viem `custom` transport's request function that posts each JSON-RPC call
 * through an {@linkcode HttpClient} of the RPC URL.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param cache The cache option as the caller gave it (undefined: the environment's).
 * @returns The request function.
 */
export function rpcThroughHttp(
  rpcUrl: string,
  cache: CacheOptions | false | undefined,
): EIP1193RequestFn {
  const http = new HttpClient(rpcUrl, { cache, progress: false });
  return (async ({ method, params }: { method: string; params?: unknown }) => {
    const response = await http.request({
      method: "POST",
      path: rpcUrl, // as given: a trailing slash some providers need is kept
      // A fixed id: the same call is the same request, so its recording is found again.
      json: { jsonrpc: "2.0", id: 1, method, params: params ?? [] },
      idempotent: true,
      cacheable: true,
    });
    const answer = response.json() as RpcAnswer;
    if (answer.error) {
      // viem tells RPC errors apart by their code, as it does for its own transport.
      throw Object.assign(new Error(answer.error.message), {
        code: answer.error.code,
        data: answer.error.data,
      });
    }
    return answer.result;
  }) as EIP1193RequestFn;
}
