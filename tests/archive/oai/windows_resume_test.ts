/**
 * The state file of an interrupted windowed harvest (several lists in
 * flight), continued by another call: whatever continues it, once it is
 * complete only the state file is left (no window's spool) and the state
 * holds no windows, so a later run starts from its high water.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { seedOaiRecords, startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";
import { failingOn } from "./_failing_fetch.ts";

const SITE = "acme/letters";
const quiet = { progress: false as const, warn: () => {} };

Deno.test("an interrupted windowed harvest continued by any call leaves only its state file", async () => {
  const sandbox = startOaiSandbox({
    sites: { [SITE]: { records: seedOaiRecords({ count: 3_000, seed: 3 }), repository: {} } },
  });
  const endpoint = `${sandbox.url}/${SITE}/api/oai`;
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [what, concurrency, pages] of [
        ["harvestRecords()", 1, true],
        ["harvestRecords()", 4, true],
        ["harvest()", 1, false],
      ] as const
    ) {
      const state = `${dir}/${what}-${concurrency}.json`;
      // The first run fails once some windows are finished (their spools written).
      const failing = failingOn(31);
      await assert.rejects(
        new OaiPmh(endpoint, { ...quiet, concurrency: 4, retry: false, fetch: failing })
          .harvest({ state }),
      );
      const saved = JSON.parse(await Deno.readTextFile(state));
      assert.ok(saved.windows.some((w: { done: boolean }) => w.done), `${what}: a window done`);
      const oai = new OaiPmh(endpoint, { ...quiet, concurrency });
      const ids = new Set<string>();
      if (pages) {
        for await (const page of oai.harvestRecords({ state })) {
          page.records.forEach((r) => ids.add(r.identifier));
        }
      } else {
        (await oai.harvest({ state })).array("identifier").forEach((id) => ids.add(String(id)));
      }
      const label = `${what} at concurrency ${concurrency}`;
      assert.equal(ids.size, 3_000, label);
      const name = state.slice(dir.length + 1);
      const left = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(name));
      assert.deepEqual(left, [name], label);
      const done = JSON.parse(await Deno.readTextFile(state));
      assert.equal(done.inProgress, false, label);
      assert.equal(done.windows, undefined, label);
      assert.ok(done.highWater, label);
    }
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
