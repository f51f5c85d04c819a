/**
 * Serves recorded HTTP exchanges (tests/fixtures/external/oai/scythe-zenodo,
 * see SOURCES.md there) over loopback with their real statuses and headers:
 * a request is answered by the exchange with the same path and arguments.
 */

import { type LocalServer, serveLocal } from "../../../lib/sandbox/_serve.ts";

const DIR = new URL("../../fixtures/external/oai/", import.meta.url);

/** One recorded exchange, as the fixture files hold it. */
export interface Exchange {
  method: string;
  uri: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The exchanges of one cassette file below fixtures/external/oai. */
export function readCassette(name: string): Exchange[] {
  return JSON.parse(Deno.readTextFileSync(new URL(name, DIR))) as Exchange[];
}

/** The path and the arguments of a request as one comparable string (order does not matter). */
function requestKey(url: URL): string {
  return `${url.pathname}?${[...url.searchParams].map(([k, v]) => `${k}=${v}`).sort().join("&")}`;
}

/**
 * Serves the exchanges of the named cassettes; a request with no recording
 * is answered 599, so a test sees at once that it asked something unrecorded.
 */
export function serveCassettes(
  names: readonly string[],
  requests: string[] = [],
): LocalServer {
  const byArguments = new Map<string, Exchange>();
  for (const exchange of names.flatMap(readCassette)) {
    byArguments.set(requestKey(new URL(exchange.uri)), exchange);
  }
  return serveLocal((request) => {
    const args = requestKey(new URL(request.url));
    requests.push(args);
    const found = byArguments.get(args);
    if (!found) return new Response(`no recording for ${args}`, { status: 599 });
    return new Response(found.body, { status: found.status, headers: found.headers });
  }, { maxRequests: 200 });
}
