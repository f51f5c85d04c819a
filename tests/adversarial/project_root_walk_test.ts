/**
 * Breaks found in `projectRoot`'s walk up to a git repository by a hostile
 * review: the scratch copy's root could be a folder that holds secrets
 * (`.ssh/`, `.env`) beside the project, or a folder that does not hold the
 * project at all. Each test states the promise of docs/SAFETY.md (issue 53
 * item 11); each failed before the fix that came with them.
 */

import assert from "node:assert/strict";
import { copyRegularFiles, projectRoot } from "../../lib/bundle/_project_copy.ts";

async function scene(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "tidepool-walk-" }));
}

/** A notebook and its bundle in `folder`, with no `.git` or `deno.json` of their own. */
async function paper(folder: string): Promise<void> {
  await Deno.mkdir(`${folder}/out/bundle`, { recursive: true });
  await Deno.writeTextFile(`${folder}/paper.ts`, "console.log(1)");
}

/** The files a scratch copy of `root` holds, relative. */
async function copied(root: string, to: string): Promise<string[]> {
  await copyRegularFiles(root, to, root, {
    skip: new Set(),
    maxBytes: 1e6,
    copied: 0,
    maxEntries: 1000,
    entries: 0,
  });
  const found: string[] = [];
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isDirectory) await walk(`${folder}/${entry.name}`, `${prefix}${entry.name}/`);
      else found.push(`${prefix}${entry.name}`);
    }
  };
  await walk(to, "");
  return found.sort();
}

// Shows: a dotfiles repository (or a home backed up from another machine) that is not $HOME but
// has .git, a deno.json and .ssh/ is taken for the project of a paper unpacked inside it, and its
// .ssh/id_ed25519 goes into the scratch copy the stranger's code runs in. The home check compares
// by identity with $HOME only; nothing refuses a root that holds .ssh, .gnupg, .aws or .env.
Deno.test({
  name: "a repository root holding .ssh/ is not taken for a paper's project",
  fn: async () => {
    const at = await scene();
    try {
      const dotfiles = `${at}/dotfiles`;
      await Deno.mkdir(`${dotfiles}/.ssh`, { recursive: true });
      await Deno.mkdir(`${dotfiles}/.git`);
      await Deno.writeTextFile(`${dotfiles}/.ssh/id_ed25519`, "fake key");
      await Deno.writeTextFile(`${dotfiles}/deno.json`, "{}");
      await paper(`${dotfiles}/papers/stranger`);
      const root = await projectRoot(
        `${dotfiles}/papers/stranger/paper.ts`,
        `${dotfiles}/papers/stranger/out/bundle`,
        `${at}/home`,
      ).catch(() => undefined);
      if (root === undefined) return; // Refused: the safe answer.
      const files = await copied(root, `${at}/copy`);
      assert.ok(
        !files.some((file) => file.includes(".ssh/")),
        `the scratch copy holds ${files.join(", ")}`,
      );
    } finally {
      await Deno.remove(at, { recursive: true });
    }
  },
});

// Shows: reproduce passes Deno.env.get("HOME"), which is unset under `env -i`, some CI runners,
// cron and systemd services; then nothing refuses a home folder, and a notebook kept in the home
// folder itself makes the whole home (.ssh/ included) the scratch copy. A fallback (os.homedir(),
// or refusing any root that holds .ssh) would close it.
Deno.test({
  name: "without HOME, a home-like folder holding .ssh/ is still refused as the root",
  fn: async () => {
    const at = await scene();
    try {
      const home = `${at}/me`;
      await Deno.mkdir(`${home}/.ssh`, { recursive: true });
      await Deno.writeTextFile(`${home}/.ssh/id_ed25519`, "fake key");
      await paper(home);
      await assert.rejects(
        projectRoot(`${home}/paper.ts`, `${home}/out/bundle`, undefined),
        /Cannot reproduce/,
      );
    } finally {
      await Deno.remove(at, { recursive: true });
    }
  },
});

// Shows: the walk up is lexical. A paper that really lives in elsewhere/paper (no repository),
// reached through a link placed in a repository with a deno.json, gets that repository as its
// root: a folder that does not even hold the project, whose .env is copied. The real path's walk
// finds no repository and would keep the paper's own folder.
Deno.test({
  name: "a paper reached through a link inside a repository keeps its own folder as the root",
  fn: async () => {
    const at = await scene();
    try {
      const repository = `${at}/monorepo`;
      await Deno.mkdir(`${repository}/.git`, { recursive: true });
      await Deno.writeTextFile(`${repository}/deno.json`, "{}");
      await Deno.writeTextFile(`${repository}/.env`, "TOKEN=secret");
      await paper(`${at}/elsewhere/paper`);
      await Deno.symlink(`${at}/elsewhere/paper`, `${repository}/paper`);
      const root = await projectRoot(
        `${repository}/paper/paper.ts`,
        `${repository}/paper/out/bundle`,
        `${at}/home`,
      );
      assert.equal(await Deno.realPath(root), `${at}/elsewhere/paper`);
    } finally {
      await Deno.remove(at, { recursive: true });
    }
  },
});

// Shows: any entry named .git (a dangling link, an empty file) and any entry named deno.json (a
// folder) make an ancestor "a git repository with a Deno config", while workspaceMembers reads a
// deno.json only when it is a regular file. The checks disagree on what a config is; the walk
// should ask for a real repository (a .git folder, or a file starting "gitdir: ") and a config file.
Deno.test({
  name: "a dangling .git link and a deno.json folder do not make an ancestor the project",
  fn: async () => {
    const at = await scene();
    try {
      const outer = `${at}/outer`;
      await Deno.mkdir(`${outer}/deno.json`, { recursive: true });
      await Deno.symlink(`${at}/nothing`, `${outer}/.git`);
      await Deno.writeTextFile(`${outer}/letter.txt`, "private");
      await paper(`${outer}/paper`);
      const root = await projectRoot(
        `${outer}/paper/paper.ts`,
        `${outer}/paper/out/bundle`,
        `${at}/home`,
      );
      assert.equal(root, `${outer}/paper`);
    } finally {
      await Deno.remove(at, { recursive: true });
    }
  },
});
