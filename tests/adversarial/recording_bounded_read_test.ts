/**
 * Every input has a bound, one step to the side of `--file` and standard
 * input: a recording a paper brings, replayed. At the very path where the
 * request's answer is looked up, a hostile recording holds a FIFO (no
 * writer: a read never ends), a link to `/dev/zero` (a read never ends and
 * holds all it reads), or a link to a file of the reader's outside the
 * recording (a "credentials" file, whose text a JSON parser would quote in
 * its error). Each replay, in a child, must end with an error naming the
 * recording file, within the bytes it read (`rchar` of /proc/self/io,
 * counted by the kernel), and without a byte of the outside file in what it
 * wrote.
 */

import assert from "node:assert/strict";
import { cacheKey } from "../../lib/http/cache.ts";

const HTTP = new URL("../../lib/http/mod.ts", import.meta.url).href;
const BASE = "http://127.0.0.1:9";
const OUTSIDE = "[default]\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCY\n";

/** Replays one request in a child; what it wrote, and the bytes it read in all. */
async function replay(dir: string): Promise<{ code: number; out: string; readBytes: number }> {
  const script = `
    import { HttpClient } from ${JSON.stringify(HTTP)};
    let said = "";
    try {
      await new HttpClient(${JSON.stringify(BASE)}, {
        progress: false, retry: false, cache: { dir: ${JSON.stringify(dir)}, mode: "replay" },
      }).request({ path: "/status" });
      said = "answered";
    } catch (error) {
      said = String(error?.message ?? error);
    }
    const io = Deno.readTextFileSync("/proc/self/io");
    console.log(JSON.stringify({ said, readBytes: Number(/^rchar: (\\d+)/m.exec(io)[1]) }));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--frozen", "--v8-flags=--max-old-space-size=512", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A read that never ends is the failure this test exists for: the child is stopped once it
  // has read far past any recording, checked from outside.
  const watch = setInterval(() => {
    try {
      const io = Deno.readTextFileSync(`/proc/${child.pid}/io`);
      if (Number(/^rchar: (\d+)/m.exec(io)?.[1]) > 512 * 1024 ** 2) child.kill("SIGKILL");
    } catch {
      // ended
    }
  }, 50);
  try {
    const { code, stdout, stderr } = await child.output();
    const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    const line = out.split("\n").find((l) => l.startsWith("{"));
    const parsed = line ? JSON.parse(line) : { said: out, readBytes: Infinity };
    return { code, out: parsed.said, readBytes: parsed.readBytes };
  } finally {
    clearInterval(watch);
  }
}

async function recordingPath(dir: string): Promise<string> {
  const key = await cacheKey({ method: "GET", url: `${BASE}/status`, body: "" });
  await Deno.mkdir(`${dir}/127.0.0.1_9/${key.slice(0, 2)}`, { recursive: true });
  return `${dir}/127.0.0.1_9/${key.slice(0, 2)}/${key}.json`;
}

const CASES: [string, (path: string, root: string) => Promise<void>][] = [
  ["a link to /dev/zero", (path) => Deno.symlink("/dev/zero", path)],
  ["a link to a file outside the recording", async (path, root) => {
    await Deno.writeTextFile(`${root}/credentials`, OUTSIDE);
    await Deno.symlink(`${root}/credentials`, path);
  }],
];

for (const [what, plant] of CASES) {
  Deno.test(`a replayed recording holding ${what} is refused, within a bound`, async () => {
    const root = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    try {
      const dir = `${root}/recording`;
      await plant(await recordingPath(dir), root);
      const { out, readBytes } = await replay(dir);
      assert.match(out, /recording/i, out);
      assert.doesNotMatch(out, /answered/);
      assert.ok(readBytes < 256 * 1024 * 1024, `read ${readBytes} bytes`);
      for (const piece of ["default", "aws_secret", "wJalrXUtn"]) {
        assert.ok(!out.includes(piece), `the outside file is quoted: ${out}`);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a replayed recording holding a FIFO is refused, never waited on", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  try {
    const dir = `${root}/recording`;
    const path = await recordingPath(dir);
    const made = await new Deno.Command("mkfifo", { args: [path] }).output();
    assert.equal(made.code, 0);
    const child = replay(dir);
    // Open for writing blocks until a reader opens the FIFO: it returns only if the child opened it.
    const writer = Deno.open(path, { write: true }).then((file) => {
      file.close();
      return undefined;
    });
    try {
      const result = await Promise.race([child, writer]);
      const settled = result ?? await child;
      assert.equal(
        result === undefined ? "blocked on the FIFO" : "refused",
        "refused",
        settled.out,
      );
      assert.match(settled.out, /recording/i);
    } finally {
      // The writer still waiting for a reader is released by one, opened without blocking.
      try {
        Deno.openSync(path, { read: true, write: true }).close();
      } catch {
        // gone
      }
      await writer.catch(() => undefined);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
