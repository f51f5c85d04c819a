/**
 * A sandbox node in its own process, standing in for a real node: what the
 * demo and the notebooks see when TIDEPOOL_OCEAN_NODE is set. It prints
 * `READY <url> <compute example as JSON>` once listening, then one line
 * `REQUEST <method> <path?query> <body>` per request, and exits when its
 * stdin closes (the test ended, or its process died), on SIGTERM, or after
 * `argv[1]` ms (default 30 minutes, far beyond any test on a loaded
 * machine: only an orphan whose stdin never closes lives that long).
 *
 * Usage: deno run -A tests/sandbox/_real_node.ts <allowlisted address> [lifetime ms]
 */

import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const [allowed, lifetime] = Deno.args;
const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
// A logging front: every request is printed, then passed to the node as it came.
// The node's assets name the front, the address clients reach it by.
const front = serveLocal(async (request) => {
  const url = new URL(request.url);
  const body = request.body ? await request.text() : "";
  print(`REQUEST ${request.method} ${url.pathname}${url.search} ${body.replaceAll("\n", " ")}`);
  const target = new URL(url.pathname + url.search, node.url);
  const answer = await fetch(target, {
    method: request.method,
    headers: request.headers,
    body: body === "" ? undefined : body,
  });
  if (url.pathname === "/" && answer.ok) {
    // A real node has its own id: the sandbox's would make computePlan name the sandbox.
    const info = await answer.json();
    return Response.json({ ...info, nodeId: "16Uiu2HAmStandInForARealNodeQm7tHw2Xk9pLr3" });
  }
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}, { maxRequests: 5_000 });
const node = startOceanSandbox({
  count: 200,
  freeAllowlist: [allowed],
  compute: { stepMs: 50 },
  maxRequests: 5_000,
  serviceEndpoint: front.url,
});
print(`READY ${front.url} ${JSON.stringify(node.computeExample())}`);

const stop = async () => {
  await front.close();
  await node.close();
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", stop);
setTimeout(stop, Number(lifetime ?? 30 * 60_000));
(async () => {
  for await (const _ of Deno.stdin.readable) { /* serve until the test closes stdin */ }
  await stop();
})();
