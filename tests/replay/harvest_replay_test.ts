/**
 * A paged OAI-PMH harvest with a state file, recorded against the sandbox
 * (interrupted on page 5, resumed from its state, then run again for the
 * changes since its high-water datestamp), replays with the sandbox stopped
 * and no network to tables with the same digests, from a fresh state file.
 * An edited recording must show as a changed table.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import type { CacheOptions } from "../../lib/http/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { tableDigest } from "../../lib/table/mod.ts";
import { editRecordedBody } from "./_replay.ts";
import { failingOn } from "../archive/oai/_failing_fetch.ts";

const SITE = "acme/letters";

const offline: typeof fetch = (input) =>
  Promise.reject(new Error(`network used in replay mode: ${input}`));

function client(endpoint: string, cache: CacheOptions, transport?: typeof fetch): OaiPmh {
  return new OaiPmh(endpoint, {
    progress: false,
    retry: false,
    minIntervalMs: 0,
    cache,
    fetch: transport,
  });
}

/** The full harvest and the incremental one after it, from a fresh state file. */
async function harvestTwice(endpoint: string, cache: CacheOptions, state: string) {
  const full = await client(endpoint, cache, cache.mode === "replay" ? offline : undefined)
    .harvest({ state });
  const changes = await client(endpoint, cache, cache.mode === "replay" ? offline : undefined)
    .harvest({ state });
  return { full: tableDigest(full), changes: tableDigest(changes), state };
}

Deno.test("a paged harvest with state replays offline to the same tables", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-harvest-replay-" });
  const record: CacheOptions = { dir: `${dir}/cache`, mode: "record" };
  const replay: CacheOptions = { dir: `${dir}/cache`, mode: "replay" };
  const sandbox = startOaiSandbox({ pageSize: 25 });
  const endpoint = `${sandbox.url}/${SITE}/api/oai`;
  let recorded;
  try {
    const state = `${dir}/recorded.json`;
    await assert.rejects(
      () => client(endpoint, record, failingOn(5)).harvest({ state }),
      /Cannot reach the service/,
    );
    assert.equal(JSON.parse(await Deno.readTextFile(state)).delivered, 100);
    recorded = await harvestTwice(endpoint, record, state);
    assert.equal(recorded.full.rows, sandbox.records[SITE].length);
    // Nothing changed since the high-water datestamp: noRecordsMatch, an answer worth replaying.
    assert.equal(recorded.changes.rows, 0);
  } finally {
    await sandbox.close();
  }
  try {
    const replayed = await harvestTwice(endpoint, replay, `${dir}/replayed.json`);
    assert.deepEqual(replayed.full, recorded.full);
    assert.deepEqual(replayed.changes, recorded.changes);
    const highWater = async (path: string) => JSON.parse(await Deno.readTextFile(path)).highWater;
    assert.equal(await highWater(replayed.state), await highWater(recorded.state));

    // One record's title edited in the recording of the first page.
    await editRecordedBody(replay.dir, /\?metadataPrefix=oai_dc&verb=ListRecords$/, (body) => {
      assert.match(body, /<dc:title>[^<]+<\/dc:title>/);
      return body.replace(/<dc:title>[^<]+<\/dc:title>/, "<dc:title>edited</dc:title>");
    });
    const changed = await harvestTwice(endpoint, replay, `${dir}/edited.json`);
    assert.notEqual(changed.full.sha256, recorded.full.sha256);
    assert.deepEqual(changed.full.columns, recorded.full.columns);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
