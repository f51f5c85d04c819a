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

/** The one warning left: arquero 8.0.3's own .d.ts has a rest parameter deno doc cannot parse. */
const UPSTREAM_WARNING = /arquero\/8\.0\.3\/dist\/types\/table\/ColumnTable\.d\.ts/;

Deno.test("deno doc of every export prints no warning of ours", async () => {
  const root = new URL("../../", import.meta.url);
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const entries = Object.values(config.exports as Record<string, string>);
  assert.ok(entries.length > 10);
  for (const entry of entries) {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["doc", entry],
      cwd: root,
      stdout: "null",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.equal(code, 0, `deno doc ${entry} failed`);
    // Each warning starts a block of lines; a block that names arquero's .d.ts is upstream's.
    const warnings = new TextDecoder().decode(stderr).split(/^(?=Warning )/m)
      .filter((block) => block.startsWith("Warning ") && !UPSTREAM_WARNING.test(block));
    assert.deepEqual(warnings, [], `deno doc ${entry} warns`);
  }
});
