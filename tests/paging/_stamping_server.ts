/**
 * A server for tests/paging/next_request_test.ts, run in its own process so
 * that it answers while the test's process is busy: `/rows?offset=N&limit=L`
 * answers L numbered rows of a total of 60. As each request arrives it
 * creates the file `<dir>/<offset>`, so the test can see, without a clock,
 * that a request reached the server while its own process was still busy.
 * Prints `<url> <dir>`, then serves until stdin closes.
 */

const dir = Deno.makeTempDirSync({ prefix: "tidepool-stamps-" });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
  const url = new URL(request.url);
  const offset = Number(url.searchParams.get("offset"));
  const limit = Number(url.searchParams.get("limit"));
  Deno.writeTextFileSync(`${dir}/${offset}`, "");
  const rows = Array.from(
    { length: Math.max(0, Math.min(limit, 60 - offset)) },
    (_, i) => offset + i,
  );
  return Response.json({ rows, total: 60 });
});
console.log(`http://127.0.0.1:${server.addr.port} ${dir}`);
for await (const _ of Deno.stdin.readable) { /* serve until the test closes stdin */ }
await server.shutdown();
Deno.removeSync(dir, { recursive: true });
