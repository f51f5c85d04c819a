/**
 * mirror({ state, dir }) keeps the resources' contents: the folder equals
 * the source (read back and hashed apart from tidepool, the source fetched
 * apart too), the cap holds at a loopback gate, a 503 storm completes, a
 * stopped mirror resumes without fetching finished files (counted at the
 * server), and changes and deletions reach the folder.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import { startNetworkGate } from "../../../bench/_network_gate.ts";
import { startArchiveSandbox } from "../../../lib/sandbox/archive/mod.ts";
import { filesIn, mirrorSandbox, sourceContents } from "./_mirror_helpers.ts";

const quiet = { progress: false as const, warn: () => {} };
const site = "acme/letters";

Deno.test("mirror with dir: the folder holds exactly the source's contents, and a second run fetches nothing", async () => {
  const { sandbox, slugs } = mirrorSandbox(120);
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site, concurrency: 8 });
    const run = await rs.mirror({ state: `${dir}/mirror.json`, dir: `${dir}/files` });
    assert.equal(run.kind, "baseline");
    assert.equal(run.written.length, slugs.length);
    const expected = await sourceContents(sandbox.url, site, slugs);
    assert.deepEqual(await filesIn(`${dir}/files`), expected);
    // tidepool's own report agrees with the independent read.
    for (const file of run.written) assert.equal(file.sha256, expected.get(file.path));

    const before = sandbox.requestCount;
    const again = await rs.mirror({ state: `${dir}/mirror.json`, dir: `${dir}/files` });
    assert.equal(again.kind, "changes");
    assert.equal(again.written.length, 0);
    // Discovery and the change list only: no resource fetched again.
    assert.ok(sandbox.requestCount - before <= 3, `${sandbox.requestCount - before} requests`);
    const relist = await rs.mirror({
      state: `${dir}/mirror.json`,
      dir: `${dir}/files`,
      relistAfterDays: 0,
    });
    assert.equal(relist.written.length, 0);
    assert.equal(relist.unchanged, slugs.length);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mirror downloads: the cap holds at the server and is used; a 503 storm completes within it", async () => {
  const { sandbox, slugs } = mirrorSandbox(60);
  const dir = await Deno.makeTempDir();
  const calm = startNetworkGate(sandbox.url, { delayMs: 10 });
  const storm = startNetworkGate(sandbox.url, {
    delayMs: 10,
    unavailableEvery: 3,
    retryAfterSeconds: 0.05,
  });
  try {
    for (const [name, gate, concurrency] of [["calm", calm, 4], ["storm", storm, 8]] as const) {
      const rs = new ResourceSync(gate.url, { ...quiet, site, concurrency });
      await rs.mirror({ state: `${dir}/${name}.json`, dir: `${dir}/${name}` });
      // Pauses are proved at 1 s in tests/http/polite_pacing_test.ts; 50 ms are too short to
      // judge from arrival times on a loaded machine.
      // The documents name the gate's host, as a source behind a proxy does.
      const expected = await sourceContents(gate.url, site, slugs);
      assert.deepEqual(await filesIn(`${dir}/${name}`), expected, name);
      assert.ok(gate.inFlight.max <= concurrency, `${name}: ${gate.inFlight.max} in flight`);
      assert.ok(gate.inFlight.max > 1, `${name}: one at a time`);
    }
    assert.ok(storm.refused >= 20, `${storm.refused} refusals`);
  } finally {
    await calm.close();
    await storm.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a stopped mirror resumes without fetching a finished file again", async () => {
  const { sandbox, slugs } = mirrorSandbox(80);
  const dir = await Deno.makeTempDir();
  const fetched = new Map<string, number>();
  const stop = new AbortController();
  const counting: typeof fetch = async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    const response = await fetch(input, init);
    if (path.includes("/data/")) {
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      // Stopped after the 30th resource answered: the ones in flight are cut.
      if ([...fetched.values()].reduce((a, b) => a + b, 0) === 30) stop.abort(new Error("stop"));
    }
    return response;
  };
  try {
    const state = `${dir}/mirror.json`;
    const first = new ResourceSync(sandbox.url, {
      ...quiet,
      site,
      concurrency: 4,
      fetch: counting,
    });
    await assert.rejects(first.mirror({ state, dir: `${dir}/files`, signal: stop.signal }), /stop/);
    const kept = await filesIn(`${dir}/files`);
    assert.ok(kept.size > 0 && kept.size < slugs.length, `${kept.size} files after the stop`);
    const firstRun = new Map(fetched);
    fetched.clear();
    const second = new ResourceSync(sandbox.url, {
      ...quiet,
      site,
      concurrency: 4,
      fetch: counting,
    });
    const run = await second.mirror({ state, dir: `${dir}/files` });
    assert.equal(run.kind, "changes");
    // Every file on disk after the stop was left alone; every other one fetched once.
    for (const path of kept.keys()) assert.equal(fetched.get(`/${path}`), undefined, path);
    assert.equal(fetched.size, slugs.length - kept.size);
    assert.ok([...fetched.values()].every((n) => n === 1));
    assert.ok(firstRun.size >= 30 - 4);
    assert.deepEqual(await filesIn(`${dir}/files`), await sourceContents(sandbox.url, site, slugs));
    // No temporary file is left behind by the cut downloads.
    for (const path of (await filesIn(`${dir}/files`)).keys()) assert.ok(!path.endsWith(".part"));
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("changes reach the folder: an updated resource is fetched alone, a deleted one removed at the re-list", async () => {
  const { sandbox, records, slugs } = mirrorSandbox(40);
  const dir = await Deno.makeTempDir();
  const paths: string[] = [];
  const counting: typeof fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path.includes("/data/")) paths.push(path);
    return fetch(input, init);
  };
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site, concurrency: 4, fetch: counting });
    const options = { state: `${dir}/mirror.json`, dir: `${dir}/files` };
    await rs.mirror(options);
    const live = records.filter((r) => !r.deleted);
    const [updated, gone] = [live[3], live[7]];
    updated.dc.title = ["A new title"];
    // Now, at or after the baseline's list time (both to the second).
    updated.datestamp = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    paths.length = 0;
    const changes = await rs.mirror(options);
    assert.deepEqual(paths, [`/${site}/data/${updated.slug}`]);
    assert.deepEqual(changes.written.map((f) => f.path), [`${site}/data/${updated.slug}`]);
    records.splice(records.indexOf(gone), 1);
    const relist = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.deepEqual(relist.deleted, [`${site}/data/${gone.slug}`]);
    const expected = await sourceContents(
      sandbox.url,
      site,
      slugs.filter((s) => s !== gone.slug),
    );
    assert.deepEqual(await filesIn(`${dir}/files`), expected);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a mirror that kept no files starts keeping them with a full list, then always needs its folder", async () => {
  const { sandbox, slugs } = mirrorSandbox(20);
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    const state = `${dir}/mirror.json`;
    await rs.mirror({ state });
    const run = await rs.mirror({ state, dir: `${dir}/files` });
    assert.equal(run.kind, "relist");
    assert.equal(run.written.length, slugs.length);
    await assert.rejects(rs.mirror({ state }), /This mirror keeps its files in .*: pass dir/);
    await Deno.mkdir(`${dir}/elsewhere`);
    await assert.rejects(
      rs.mirror({ state, dir: `${dir}/elsewhere` }),
      /This mirror keeps its files in .*, not in .*elsewhere/,
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("against the archive sandbox, every listed digest is that of the bytes its data URI serves", async () => {
  for (const shapesSeed of [0, 3]) {
    const sandbox = await startArchiveSandbox({ shapesSeed });
    const dir = await Deno.makeTempDir();
    try {
      const rs = new ResourceSync(sandbox.url, {
        ...quiet,
        site: "shinano/letters",
        concurrency: 4,
      });
      const listed = await rs.resourceList();
      const run = await rs.mirror({ state: `${dir}/m.json`, dir: `${dir}/files` });
      assert.equal(run.written.length, listed.numRows(), `seed ${shapesSeed}`);
      const slugs = (listed.array("loc") as string[]).map((loc) =>
        decodeURIComponent(loc.split("/").pop()!)
      );
      const expected = await sourceContents(sandbox.url, "shinano/letters", slugs);
      assert.deepEqual(await filesIn(`${dir}/files`), expected, `seed ${shapesSeed}`);
      const hashes = listed.array("hash") as (string | null)[];
      assert.equal(hashes.every((h) => h === null), shapesSeed === 0, `seed ${shapesSeed}`);
    } finally {
      await sandbox.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("a state kept inside the folder (as the command line keeps it): a list-only mirror starts keeping files there", async () => {
  const { sandbox, slugs } = mirrorSandbox(15);
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    const state = `${dir}/_resourcesync_state.json`;
    await rs.mirror({ state });
    const run = await rs.mirror({ state, dir });
    assert.equal(run.written.length, slugs.length);
    const files = [...(await filesIn(dir)).keys()];
    assert.equal(files.filter((f) => f.startsWith(`${site}/data/`)).length, slugs.length);
    // A file of the user's beside them still makes a new folder refuse.
    const other = await Deno.makeTempDir();
    await Deno.writeTextFile(`${other}/theirs.txt`, "x");
    await assert.rejects(
      rs.mirror({ state: `${other}/_resourcesync_state.json`, dir: other }),
      /the folder is not empty \(theirs\.txt\)/,
    );
    await Deno.remove(other, { recursive: true });
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
