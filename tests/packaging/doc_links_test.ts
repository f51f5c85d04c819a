/** The public documentation names only what a user can import. */

import assert from "node:assert/strict";

Deno.test("deno doc of the entry point names no internal function (fetchOrders)", async () => {
  const root = new URL("../../", import.meta.url);
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "mod.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(code, 0);
  const text = new TextDecoder().decode(stdout);
  assert.match(text, /Subgraph\.orders/);
  assert.doesNotMatch(text, /fetchOrders/);
});
