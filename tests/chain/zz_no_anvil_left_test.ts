import assert from "node:assert/strict";
import { anvilChildren } from "./_anvil_processes.ts";

// Named to sort last: Deno runs the files of one run in this order, so this
// checks that every anvil the chain tests started in this process is gone.
Deno.test("no anvil process is left running after the chain tests", async () => {
  assert.deepEqual(await anvilChildren(), []);
});
