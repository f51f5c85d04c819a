import assert from "node:assert/strict";
import { join } from "node:path";
import { temporaryPath, writeFileAtomic } from "../../lib/fs/write_file_atomic.ts";

Deno.test("writeFileAtomic writes text and bytes, replaces a file and leaves no temporary name", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "state.json");
    await writeFileAtomic(path, "first");
    await writeFileAtomic(path, new TextEncoder().encode("second"));
    assert.equal(await Deno.readTextFile(path), "second");
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["state.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed rename removes the temporary file and keeps what was there", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = join(dir, "folder");
    await Deno.mkdir(join(target, "inside"), { recursive: true });
    await assert.rejects(writeFileAtomic(target, "text"));
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["folder"]);
    assert.ok((await Deno.stat(join(target, "inside"))).isDirectory);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("temporary names sit beside the target, hidden, end in .part and differ each time", () => {
  const a = temporaryPath("/data/x.json");
  const b = temporaryPath("/data/x.json");
  assert.match(a, /^\/data\/\.x\.json\.[0-9a-f]{8}\.part$/);
  assert.notEqual(a, b);
  assert.match(temporaryPath("x.json"), /^\.x\.json\.[0-9a-f]{8}\.part$/);
});
