/**
 * A server for tests/paging/next_request_test.ts, run in its own process so
 * that it answers while the test's process is busy: `/rows?offset=N&limit=L`
 * answers L numbered rows of a total of 60, with the time the request arrived.
 * Prints its URL, then serves until stdin closes.
 */

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
  const arrived = Date.now();
  const url = new URL(request.url);
  const offset = Number(url.searchParams.get("offset"));
  const limit = Number(url.searchParams.get("limit"));
  const rows = Array.from(
    { length: Math.max(0, Math.min(limit, 60 - offset)) },
    (_, i) => offset + i,
  );
  return Response.json({ rows, total: 60, arrived });
});
console.log(`http://127.0.0.1:${server.addr.port}`);
for await (const _ of Deno.stdin.readable) { /* serve until the test closes stdin */ }
await server.shutdown();
