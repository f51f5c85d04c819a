/**
 * The scratch copy's root is the project's own folder: the folder that
 * holds both the source and the bundle, never an ancestor found by walking
 * up to the nearest `deno.json` or `.git` (a folder of anything, beside
 * `.ssh/` and `Documents/`). Checked on the folder `projectRoot` picks and
 * on the files a scratch copy of it holds (`copyProject`'s output folder).
 */

import assert from "node:assert/strict";
import { copyRegularFiles, projectRoot } from "../../lib/bundle/_project_copy.ts";

async function filesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory) await walk(`${folder}/${entry.name}`, `${name}/`);
      else found.push(name);
    }
  };
  await walk(dir, "");
  return found.sort();
}

/** A folder like a home (not the real one) with a deno.json beside .ssh and Documents. */
async function homeLike(scene: string): Promise<string> {
  const outer = `${scene}/olduser`;
  await Deno.mkdir(`${outer}/.ssh`, { recursive: true });
  await Deno.mkdir(`${outer}/Documents`);
  await Deno.writeTextFile(`${outer}/.ssh/id_rsa`, "fake key");
  await Deno.writeTextFile(`${outer}/Documents/letter.txt`, "private");
  await Deno.writeTextFile(`${outer}/deno.json`, "{}");
  return outer;
}

Deno.test("a project without a deno.json, inside a folder with one: the root is the project", async () => {
  const scene = await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-root-" }));
  try {
    const outer = await homeLike(scene);
    const project = `${outer}/paper`;
    await Deno.mkdir(`${project}/out/bundle`, { recursive: true });
    await Deno.writeTextFile(`${project}/paper.ts`, "console.log(1)");
    const root = await projectRoot(`${project}/paper.ts`, `${project}/out/bundle`, `${scene}/home`);
    assert.equal(root, project);
    // What a scratch copy of that root holds: the project's files, none of the folder around it.
    const copy = `${scene}/copy`;
    await copyRegularFiles(root, copy, root, {
      skip: new Set(),
      maxBytes: 1e6,
      copied: 0,
      maxEntries: 1000,
      entries: 0,
    });
    const copied = await filesBelow(copy);
    assert.deepEqual(copied, ["paper.ts"]);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a .git above the project is not its root either; its own deno.json or .git is", async () => {
  const scene = await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-root-" }));
  try {
    const outer = await homeLike(scene);
    await Deno.remove(`${outer}/deno.json`);
    await Deno.mkdir(`${outer}/.git`);
    const project = `${outer}/work/paper`;
    await Deno.mkdir(`${project}/notebooks`, { recursive: true });
    await Deno.mkdir(`${project}/out/bundle`, { recursive: true });
    const source = `${project}/notebooks/a.ipynb`;
    await Deno.writeTextFile(source, "{}");
    // Source and bundle in sibling folders: the folder holding both.
    assert.equal(await projectRoot(source, `${project}/out/bundle`, `${scene}/home`), project);
    await Deno.writeTextFile(`${project}/deno.json`, "{}");
    assert.equal(await projectRoot(source, `${project}/out/bundle`, `${scene}/home`), project);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("the home folder itself is still refused", async () => {
  const scene = await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-root-" }));
  try {
    const home = `${scene}/home`;
    await Deno.mkdir(`${home}/out/bundle`, { recursive: true });
    await Deno.writeTextFile(`${home}/paper.ts`, "");
    await assert.rejects(
      projectRoot(`${home}/paper.ts`, `${home}/out/bundle`, home),
      /it is your home folder/,
    );
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a notebook and its bundle in notebooks/ belong to the repository whose root has the project's deno.json", async () => {
  const scene = await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-root-" }));
  try {
    const outer = await homeLike(scene);
    const project = `${outer}/work/paper`;
    await Deno.mkdir(`${project}/.git`, { recursive: true });
    await Deno.writeTextFile(`${project}/deno.json`, "{}");
    await Deno.mkdir(`${project}/notebooks/bundle`, { recursive: true });
    const source = `${project}/notebooks/a.ipynb`;
    await Deno.writeTextFile(source, "{}");
    assert.equal(
      await projectRoot(source, `${project}/notebooks/bundle`, `${scene}/home`),
      project,
    );
    // The walk stops at the first .git: a repository inside it without a deno.json is its own
    // project, never the outer one's (outer's deno.json is beside .ssh and Documents).
    await Deno.mkdir(`${outer}/.git`);
    const inner = `${project}/vendor/other`;
    await Deno.mkdir(`${inner}/.git`, { recursive: true });
    await Deno.writeTextFile(`${inner}/b.ts`, "");
    await Deno.mkdir(`${inner}/out`);
    assert.equal(await projectRoot(`${inner}/b.ts`, `${inner}/out`, `${scene}/home`), inner);
    // Without its own .git and deno.json the project is the folder holding both: the first
    // .git above (outer's, beside .ssh and Documents) has no deno.json, so it is not taken.
    await Deno.remove(`${project}/.git`, { recursive: true });
    await Deno.remove(`${project}/deno.json`);
    await Deno.remove(`${outer}/deno.json`);
    assert.equal(
      await projectRoot(source, `${project}/notebooks/bundle`, `${scene}/home`),
      `${project}/notebooks`,
    );
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});
