import assert from "node:assert/strict";
import { childEnvironment } from "./_child_runs.ts";

Deno.test("childEnvironment passes no TIDEPOOL_* setting or wallet key on, only what is given", () => {
  const names = ["TIDEPOOL_OCEAN_NODE", "OCEAN_PRIVATE_KEY", "TIDEPOOL_CHILD_RUNS_PROBE"];
  const saved = names.map((name) => [name, Deno.env.get(name)] as const);
  try {
    for (const name of names) Deno.env.set(name, "from the parent");
    const environment = childEnvironment({ TIDEPOOL_CACHE_MODE: "replay" });
    for (const name of names) assert.equal(environment[name], undefined, name);
    assert.equal(environment.TIDEPOOL_CACHE_MODE, "replay");
    assert.equal(environment.PATH, Deno.env.get("PATH"), "the rest passes on");
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
});
