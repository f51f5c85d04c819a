/**
 * A stopped run's temporary files do not stay in a recording: the next run
 * that writes to it removes them, and only them. The leftovers are made as a
 * stopped run leaves them (named `.<key>.json.<8 hex>.part` beside where the
 * answer goes, and in `settings/`); beside them lie files that are not a
 * leftover of tidepool (a user's file, a link of the right name pointing
 * outside, a file of the right name in the wrong folder) and one whose write
 * is in progress (its lock held): those are all still there afterwards. And
 * a real stop: a child killed (SIGKILL) at the point it signals, its answer
 * written to the temporary file but not renamed.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("the next run clears a stopped run's temporary files from a recording, and only those", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const outside = await Deno.makeTempDir({ prefix: "tidepool-outside-" });
  const server = serveLocal(() => Response.json({ ok: true }), { maxRequests: 10 });
  try {
    const host = `${dir}/${new URL(server.url).host.replace(/[^A-Za-z0-9.-]/g, "_")}`;
    const hex = (n: number) => n.toString(16).padStart(2, "0").repeat(32);
    const leftovers = [
      `${host}/ab/.${"ab".repeat(32)}.json.1f2e3d4c.part`,
      `${host}/0c/.${"0c".repeat(32)}.json.00aa11bb.part`,
      `${host}/settings/.pageSize.json.deadbeef.part`,
    ];
    const notOurs = [
      `${host}/ab/.notes.json.part`, // a user's file
      `${host}/ab/.${hex(0xcd)}.json.1f2e3d4c.part`, // a key that does not belong in folder ab
      `${dir}/.${"ab".repeat(32)}.json.1f2e3d4c.part`, // the right name, not in a host's folder
      `${host}/ab/${"ab".repeat(32)}.json`, // a recorded answer
    ];
    const link = `${host}/ab/.${"ab".repeat(31)}ef.json.2f2e3d4c.part`;
    const busy = `${host}/ab/.${"ab".repeat(31)}ee.json.3f2e3d4c.part`;
    for (const path of [...leftovers, ...notOurs, busy]) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, '{"format":"tidepool-cache/1","url":"');
    }
    await Deno.writeTextFile(`${outside}/target`, "kept");
    await Deno.symlink(`${outside}/target`, link);
    // A write in progress in another run: its lock is held.
    const inProgress = await Deno.open(busy, { write: true });
    assert.equal(await inProgress.tryLock(true), true);
    try {
      const http = new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } });
      await http.request({ path: "/x" });
      for (const path of leftovers) assert.equal(await exists(path), false, `${path} is removed`);
      for (const path of [...notOurs, busy, link]) {
        assert.equal(await exists(path), true, `${path} is kept`);
      }
      assert.equal(await Deno.readTextFile(`${outside}/target`), "kept");
    } finally {
      inProgress.close();
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a recording written by a run has no temporary file left in it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const server = serveLocal((r) => Response.json({ path: new URL(r.url).pathname }), {
    maxRequests: 30,
  });
  try {
    const http = new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } });
    await Promise.all(Array.from({ length: 20 }, (_, i) => http.request({ path: `/p${i}` })));
    const names: string[] = [];
    const walk = async (folder: string) => {
      for await (const entry of Deno.readDir(folder)) {
        if (entry.isDirectory) await walk(`${folder}/${entry.name}`);
        else names.push(entry.name);
      }
    };
    await walk(dir);
    assert.equal(names.length, 20);
    assert.ok(names.every((name) => !name.endsWith(".part")));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a run killed while writing a recorded answer: the next run removes what it left, and only that", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const server = serveLocal((r) => Response.json({ path: new URL(r.url).pathname }), {
    maxRequests: 10,
  });
  const http = new URL("../../lib/http/mod.ts", import.meta.url).href;
  // The child stops for good where the temporary file is complete but not yet renamed, and says so.
  const script = `
    import { HttpClient } from ${JSON.stringify(http)};
    Deno.rename = () => { console.log("writing"); return new Promise(() => {}); };
    await new HttpClient(${JSON.stringify(server.url)}, {
      progress: false, cache: { dir: ${JSON.stringify(dir)}, mode: "record" },
    }).request({ path: "/first" });`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--frozen", script],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    while (!said.includes("writing")) {
      const { value, done } = await reader.read();
      if (done) break;
      said += value;
    }
    assert.match(said, /writing/, "the child reached the write");
    child.kill("SIGKILL");
    await child.status;
    reader.releaseLock();
    const walk = async (folder: string, out: string[] = []) => {
      for await (const entry of Deno.readDir(folder)) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory) await walk(path, out);
        else out.push(path);
      }
      return out;
    };
    const left = await walk(dir);
    assert.equal(left.length, 1, left.join("\n"));
    assert.match(
      left[0],
      /\/\.[0-9a-f]{64}\.json\.[0-9a-f]{8}\.part$/,
      "the stop left a partial file",
    );
    // The next run records another answer: the partial file is gone, its own answer is there.
    const { HttpClient } = await import("../../lib/http/mod.ts");
    await new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } })
      .request({ path: "/second" });
    const after = await walk(dir);
    assert.equal(after.length, 1, after.join("\n"));
    assert.match(after[0], /\/[0-9a-f]{64}\.json$/);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await child.status;
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
