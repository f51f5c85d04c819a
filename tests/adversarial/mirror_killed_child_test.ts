/**
 * A mirror killed (`kill -9`) in the middle of a large download, then run
 * again: the resource is fetched whole and named, and the half file the
 * killed run was streaming to is not left in the user's folder for good
 * (nothing else cleans it: a mirror of large files killed now and then
 * fills the disk with hidden `.part` files). Read back from the disk.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet, treeOf } from "./_hostile_resourcesync.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MIB = 1024 * 1024;

Deno.test("a mirror killed mid-download, run again, leaves no half file in the folder", async () => {
  const size = 4 * MIB;
  let child: Deno.ChildProcess | undefined;
  let firstRun = true;
  const { server } = hostileResourceSync(
    () => [{ loc: "/data/big.bin", length: size }],
    (path) => {
      if (path !== "/data/big.bin") return undefined;
      if (!firstRun) return new Response(new Uint8Array(size).fill(7));
      firstRun = false;
      // Half the body, then the child is killed while it waits for the rest.
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new Uint8Array(2 * MIB).fill(7));
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 1500));
          child?.kill("SIGKILL");
          controller.error(new Error("the reader was killed"));
        },
      });
      return new Response(body, { headers: { "content-length": String(size) } });
    },
  );
  const root = await Deno.makeTempDir();
  try {
    child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `--config=${ROOT}deno.json`,
        `${ROOT}tests/adversarial/_mirror_child.ts`,
        server.url,
        `${root}/m.json`,
        `${root}/files`,
      ],
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).spawn();
    const status = await child.status;
    assert.equal(status.signal, "SIGKILL", "the child was killed mid-download");
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const run = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` });
    assert.deepEqual(run.written.map((f) => f.path), ["data/big.bin"]);
    assert.equal((await Deno.stat(`${root}/files/data/big.bin`)).size, size);
    assert.deepEqual(await treeOf(`${root}/files`), ["data/big.bin"], "a half file left behind");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the next run removes only the mirror's own half files: never a user's, a link, or through a link", async () => {
  let serveAll = false;
  const { server } = hostileResourceSync(
    () => [{ loc: "/data/a.txt" }, { loc: "/data/b.txt" }, { loc: "/sub/c.txt" }],
    (path) =>
      path === "/data/a.txt" || serveAll ? new Response(`bytes of ${path}`) : new Response("no", {
        status: 404,
      }),
  );
  const root = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    await assert.rejects(rs.mirror(options)); // b and c are left to fetch
    // What a killed run leaves, and what is not the mirror's to remove.
    const half = "half a file";
    await Deno.writeTextFile(`${root}/files/data/.b.txt.0123abcd.part`, half);
    await Deno.writeTextFile(`${root}/.m.json.0123abcd.part`, half);
    await Deno.writeTextFile(`${root}/files/data/.notes.0123abcd.part`, "the user's");
    await Deno.writeTextFile(`${root}/.other.json.0123abcd.part`, "the user's");
    await Deno.writeTextFile(`${outside}/victim`, "precious");
    await Deno.symlink(`${outside}/victim`, `${root}/files/data/.b.txt.89abcdef.part`);
    await Deno.writeTextFile(`${outside}/.c.txt.0123abcd.part`, "outside the folder");
    await Deno.remove(`${root}/files/sub`, { recursive: true }).catch(() => {});
    await Deno.symlink(outside, `${root}/files/sub`);
    serveAll = true;
    await rs.mirror(options).catch(() => {}); // c is refused: its folder is a link
    const tree = await treeOf(root);
    assert.ok(!tree.includes("files/data/.b.txt.0123abcd.part"), "the half file is left");
    assert.ok(!tree.includes(".m.json.0123abcd.part"), "the state's half copy is left");
    assert.ok(tree.includes("files/data/.notes.0123abcd.part"), "a user's file was removed");
    assert.ok(tree.includes(".other.json.0123abcd.part"), "a user's file was removed");
    assert.ok((await Deno.lstat(`${root}/files/data/.b.txt.89abcdef.part`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${outside}/victim`), "precious");
    assert.equal(await Deno.readTextFile(`${outside}/.c.txt.0123abcd.part`), "outside the folder");
    assert.equal(await Deno.readTextFile(`${root}/files/data/b.txt`), "bytes of /data/b.txt");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
