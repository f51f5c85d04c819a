import assert from "node:assert/strict";
import { nameNewFile } from "../../lib/fs/name_new_file.ts";

Deno.test("nameNewFile names a file only where nothing is: a file, a folder or a link there is kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/theirs.txt`, "theirs");
    await Deno.mkdir(`${dir}/folder`);
    await Deno.symlink(`${dir}/nowhere`, `${dir}/dangling`);
    await Deno.symlink(`${dir}/theirs.txt`, `${dir}/link`);
    for (const taken of ["theirs.txt", "folder", "dangling", "link"]) {
      await Deno.writeTextFile(`${dir}/.part`, "ours");
      assert.equal(await nameNewFile(`${dir}/.part`, `${dir}/${taken}`), false, taken);
      assert.equal(await Deno.readTextFile(`${dir}/.part`), "ours", "the temporary file is left");
    }
    assert.equal(await Deno.readTextFile(`${dir}/theirs.txt`), "theirs");
    assert.equal((await Deno.lstat(`${dir}/dangling`)).isSymlink, true);
    await assert.rejects(Deno.lstat(`${dir}/nowhere`), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(`${dir}/folder`)], []);

    assert.equal(await nameNewFile(`${dir}/.part`, `${dir}/ours.txt`), true);
    assert.equal(await Deno.readTextFile(`${dir}/ours.txt`), "ours");
    await assert.rejects(Deno.lstat(`${dir}/.part`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
