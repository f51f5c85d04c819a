/**
 * More members of "a secret leaked into a file or a file name": a location
 * holding a registered secret escaped twice, or escaped in a parameter's
 * name, and a list-only mirror (no folder) listing one. Each such resource is
 * refused by name (a MirrorError), never asked for at the source (its own
 * count of requests), its neighbour still kept, and no piece of the secret
 * is in a file or a file name, read back from the disk.
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet, treeOf } from "./_hostile_resourcesync.ts";

const password = "Vb6nQ2xk8Rt4mZp9";

function pieces(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= password.length; i++) {
    if (text.toLowerCase().includes(password.slice(i, i + 8).toLowerCase())) {
      found.push(password.slice(i, i + 8));
    }
  }
  return found;
}

async function refusedAlone(hostile: string, dir: boolean): Promise<void> {
  const { server, asked } = hostileResourceSync(
    () => [{ loc: "/data/fine.txt" }, { loc: hostile }],
    (path) => new Response(`bytes of ${path}`),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url.replace("http://", `http://reader:${password}@`), {
      ...quiet,
      capabilityList: "/cap.xml",
    });
    const error = await rs.mirror({
      state: `${root}/m.json`,
      ...(dir ? { dir: `${root}/files` } : {}),
    }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof MirrorError, `not refused: ${error}`);
    assert.equal(error.failed.length, 1);
    assert.equal(error.failed[0].name, "MirrorFileError");
    assert.deepEqual(pieces(String(error)), [], "the password in the error");
    assert.deepEqual(asked, dir ? ["/data/fine.txt"] : [], "the refused resource was asked for");
    if (dir) {
      assert.equal(
        await Deno.readTextFile(`${root}/files/data/fine.txt`),
        "bytes of /data/fine.txt",
      );
    }
    const names = await treeOf(root);
    assert.deepEqual(pieces(names.join("\n")), [], `the password in a file name:\n${names}`);
    for (const name of names) {
      assert.deepEqual(pieces(await Deno.readTextFile(`${root}/${name}`)), [], name);
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a secret escaped twice in a path is refused, never asked for nor stored", async () => {
  // Q as %2551, R as %2552, Z as %5A: no 8 characters of it written as they are, nor once decoded.
  await refusedAlone("/data/Vb6n%25512xk8%2552t4m%5Ap9.txt", true);
});

Deno.test("a list-only mirror refuses a parameter's name holding the secret, escaped", async () => {
  await refusedAlone("/data/a.txt?Vb6n%512xk8%52t4m%5Ap9=1", false);
});

Deno.test("a list-only mirror refuses a location holding the secret and stores none of it", async () => {
  await refusedAlone(`/data/a.txt?${password}=1`, false);
});
