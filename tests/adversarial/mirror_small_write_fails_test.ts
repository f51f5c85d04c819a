/**
 * A mirror resource that fits in memory (under 1 MiB) is written to its
 * temporary file in one synchronous call. When that write fails part-way
 * (a full disk; here a file-size limit with SIGXFSZ ignored, which gives the
 * same EFBIG/ENOSPC-style failure after the first bytes are on disk), the
 * temporary file was created by this call and must be removed, although the
 * call did not return (an attack on cb9d52f found it skipped). Class: a
 * failed download leaving its half file; the streamed path and the node's
 * downloads are covered by the mirror and download fault tests.
 */

import assert from "node:assert/strict";

const CHILD = new URL("./_save_resource_child.ts", import.meta.url).pathname;

Deno.test("a small resource whose write fails part-way leaves no half file", async () => {
  const root = await Deno.makeTempDir();
  try {
    // 600 KiB body, 100 KiB (200 blocks of 512 bytes) file-size limit.
    const out = await new Deno.Command("sh", {
      args: [
        "-c",
        `trap '' XFSZ; ulimit -f 200; exec "${Deno.execPath()}" run --no-check -A "${CHILD}" "${root}" 614400`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(out.stdout).trim();
    assert.match(said, /^failed: .*File too large/, `the save did not fail as set up: ${said}`);
    const left: string[] = [];
    for await (const entry of Deno.readDir(root)) {
      left.push(`${entry.name} (${(await Deno.lstat(`${root}/${entry.name}`)).size} bytes)`);
    }
    assert.deepEqual(left, [], `a half file is left behind: ${left.join(", ")}`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
