/**
 * Two mirror runs on one state and folder at once through the library (two
 * notebooks, or a script and a notebook): the command line holds a lock on
 * `<state>.lock`, `ResourceSync.mirror` holds none. Whatever the two runs
 * say, the mirror must still be whole afterwards: the next run completes,
 * and every file is the mirror's (the next re-list finds each one held).
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { BusyError } from "../../lib/errors/errors.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("two mirror runs on one state at once leave a mirror the next run completes", async () => {
  const listed = Array.from({ length: 12 }, (_, i) => ({ loc: `/data/${i}.txt` }));
  const { server } = hostileResourceSync(
    () => listed,
    async (path) => {
      if (!path.startsWith("/data/")) return undefined;
      // Slow enough that the two runs overlap.
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));
      return new Response(`bytes of ${path}`);
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    const client = () =>
      new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml", concurrency: 3 });
    await Promise.allSettled([client().mirror(options), client().mirror(options)]);
    const next = await client().mirror({ ...options, relistAfterDays: 0 })
      .then(() => undefined, (e: unknown) => e);
    assert.ok(next === undefined, `the run after two at once failed: ${next}`);
    const last = await client().mirror({ ...options, relistAfterDays: 0 });
    assert.equal(last.unchanged, listed.length, "every file held as the mirror's");
    for (const { loc } of listed) {
      assert.equal(await Deno.readTextFile(`${root}/files${loc}`), `bytes of ${loc}`);
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a second mirror run while one is under way is refused at once, in this process and another, having asked nothing", async () => {
  let lists = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  let started!: () => void;
  const firstAsked = new Promise<void>((resolve) => started = resolve);
  const { server, asked } = hostileResourceSync(
    () => {
      lists++;
      return [{ loc: "/data/a.txt" }, { loc: "/data/b.txt" }];
    },
    async (path) => {
      if (!path.startsWith("/data/")) return undefined;
      started();
      await released; // the first run stays under way until both others were refused
      return new Response(`bytes of ${path}`);
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    const client = () => new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const first = client().mirror(options);
    await firstAsked;
    const second = await client().mirror(options).catch((e: unknown) => e);
    assert.ok(second instanceof BusyError, `not refused as busy: ${second}`);
    assert.match(second.message, /Another mirror is running with the state .*m\.json/);
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `--config=${ROOT}deno.json`,
        `${ROOT}tests/adversarial/_mirror_child.ts`,
        server.url,
        options.state,
        options.dir,
      ],
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    assert.notEqual(child.code, 0);
    assert.match(new TextDecoder().decode(child.stderr), /BusyError: Another mirror is running/);
    assert.equal(lists, 1, "a refused run read the list");
    release();
    const run = await first;
    assert.equal(run.written.length, 2);
    assert.deepEqual(
      asked.sort(),
      ["/data/a.txt", "/data/b.txt"],
      "a refused run asked for a file",
    );
    // The lock went with the run: the next one is not refused.
    assert.equal((await client().mirror({ ...options, relistAfterDays: 0 })).unchanged, 2);
  } finally {
    release();
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
