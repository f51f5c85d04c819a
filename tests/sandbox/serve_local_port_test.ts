import assert from "node:assert/strict";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

Deno.test("serveLocal listens on the port asked for when free, on an ephemeral one when taken", async () => {
  const first = serveLocal(() => new Response("first"));
  const port = new URL(first.url).port;
  const taken = serveLocal(() => new Response("second"), { port: Number(port) });
  try {
    assert.notEqual(new URL(taken.url).port, port);
    assert.equal(await (await fetch(taken.url)).text(), "second");
  } finally {
    await taken.close();
    await first.close();
  }
  const again = serveLocal(() => new Response("again"), { port: Number(port) });
  try {
    assert.equal(again.url, first.url);
    assert.equal(await (await fetch(again.url)).text(), "again");
  } finally {
    await again.close();
  }
});
