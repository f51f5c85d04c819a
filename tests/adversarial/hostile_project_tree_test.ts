/**
 * The project folder `reproduce` copies is untrusted too. A symbolic link
 * out of the project (the bundle's folder pointing at the author's real,
 * published bundle), a link to a file outside, a FIFO; a project whose only
 * `deno.json` is in the reviewer's home folder, or above it; a static import
 * of a file outside the project (Deno loads static imports without asking
 * the run's permissions). Each is refused before anything runs, and the
 * test checks the files itself: the published bundle byte for byte, no copy
 * left in the temporary folder reproduce was given, nothing printed of the
 * secrets.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import {
  projectFolder,
  reproduceCommand,
  runAuthor,
  snapshot,
  TIDEPOOL_MOD,
} from "../bundle/_paper_project.ts";

const SECRET = "fake-ssh-key-do-not-copy";

const PAPER = `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
`;

/** The reviewer's environment with its own temporary folder, to see what reproduce leaves there. */
async function reviewer(scene: string, home = `${scene}/home`) {
  const tmp = `${scene}/tmp`;
  await Deno.mkdir(tmp, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  return { tmp, environment: childEnvironment({ HOME: home, TMPDIR: tmp }) };
}

Deno.test("a symbolic link out of the project is refused by name; the published bundle keeps every byte", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-links-" });
  try {
    const { tmp, environment } = await reviewer(scene);
    const project = `${scene}/project`;
    await projectFolder(project);
    await Deno.writeTextFile(`${project}/paper.ts`, PAPER);
    // The author keeps the published bundle elsewhere, and `out` links to it.
    await Deno.mkdir(`${scene}/published`);
    await Deno.symlink(`${scene}/published`, `${project}/out`);
    await runAuthor(project, "paper.ts");
    const published = await snapshot(`${scene}/published`);
    assert.ok(published.size > 0, "the author's run wrote through the link");
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /out in the project is a symbolic link out of the project/);
    assert.deepEqual(await snapshot(`${scene}/published`), published, "the published bundle");
    assert.deepEqual([...Deno.readDirSync(tmp)], [], "no scratch copy left behind");

    // A link to a file outside, and a FIFO, are refused the same way, naming them.
    await Deno.remove(`${project}/out`);
    await Deno.mkdir(`${project}/out`);
    await runAuthor(project, "paper.ts");
    await Deno.writeTextFile(`${scene}/secret.txt`, SECRET);
    await Deno.symlink(`${scene}/secret.txt`, `${project}/notes.txt`);
    const outward = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    assert.equal(outward.code, 1);
    assert.match(outward.stderr, /notes\.txt in the project is a symbolic link out of the project/);
    assert.ok(!(outward.stdout + outward.stderr).includes(SECRET));
    await Deno.remove(`${project}/notes.txt`);
    const fifo = await new Deno.Command("mkfifo", { args: [`${project}/pipe`] }).output();
    assert.equal(fifo.code, 0);
    const piped = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    assert.equal(piped.code, 1);
    assert.match(piped.stderr, /pipe in the project is not a regular file/);
    await Deno.remove(`${project}/pipe`);

    // A link to a file inside the project is copied as that file: the paper reproduces.
    await Deno.writeTextFile(`${project}/data.txt`, "inside");
    await Deno.symlink(`${project}/data.txt`, `${project}/alias.txt`);
    const inside = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    assert.equal(inside.code, 0, inside.stdout + inside.stderr);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("the project root is never the home folder, a folder holding it, or /", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-home-" });
  try {
    // The only deno.json above the paper is the home folder's, beside .ssh and a large file.
    const home = `${scene}/home`;
    const { tmp, environment } = await reviewer(scene, home);
    await projectFolder(home);
    await Deno.mkdir(`${home}/.ssh`);
    await Deno.writeTextFile(`${home}/.ssh/id_rsa`, SECRET);
    await Deno.writeFile(`${home}/big.bin`, new Uint8Array(8 * 1024 * 1024));
    await Deno.mkdir(`${home}/paper`);
    await Deno.writeTextFile(`${home}/paper/paper.ts`, PAPER);
    await runAuthor(`${home}/paper`, "paper.ts");
    const run = await reproduceCommand(
      [
        `${home}/paper/out/bundle`,
        `${home}/paper/paper.ts`,
        "--recording",
        `${home}/.cache/tidepool`,
      ],
      environment,
    );
    // The root is the paper's own folder, never the home folder above it (tests/adversarial/scratch_root_test.ts):
    // without its own deno.json the re-run cannot resolve its imports, and nothing of the home is read.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.doesNotMatch(run.stderr, /home folder/);
    assert.ok(!(run.stdout + run.stderr).includes(SECRET));
    assert.deepEqual([...Deno.readDirSync(tmp)], [], "nothing left in the temporary folder");
    await Deno.mkdir(`${home}/paper/.git`);
    const inHome = await reproduceCommand(
      [
        `${home}/paper/out/bundle`,
        `${home}/paper/paper.ts`,
        "--recording",
        `${home}/.cache/tidepool`,
      ],
      environment,
    );
    assert.equal(inHome.code, 1);
    assert.doesNotMatch(inHome.stderr, /home folder/);
    await Deno.remove(`${home}/paper/.git`);

    // The home folder itself as the project: refused.
    await Deno.writeTextFile(`${home}/paper2.ts`, PAPER);
    const home2 = await reproduceCommand(
      [`${home}/paper/out/bundle`, `${home}/paper2.ts`, "--recording", `${home}/.cache/tidepool`],
      environment,
    );
    assert.equal(home2.code, 1, home2.stdout + home2.stderr);
    assert.match(home2.stderr, /it is your home folder, and reproduce copies the whole project/);
    await Deno.remove(`${home}/paper2.ts`);

    // A source above the home folder: the folder holding it and the bundle would hold the home.
    await Deno.remove(`${home}/deno.json`);
    await Deno.mkdir(`${scene}/.git`);
    await Deno.writeTextFile(`${scene}/paper.ts`, PAPER);
    const above = await reproduceCommand(
      [
        `${home}/paper/out/bundle`,
        `${scene}/paper.ts`,
        "--recording",
        `${home}/.cache/tidepool`,
      ],
      environment,
    );
    assert.equal(above.code, 1);
    assert.match(above.stderr, /it holds your home folder/);
    assert.ok(!(above.stdout + above.stderr).includes(SECRET));

    // Its own deno.json makes the paper's folder the root: then it reproduces.
    await projectFolder(`${home}/paper`);
    const own = await reproduceCommand(
      [
        `${home}/paper/out/bundle`,
        `${home}/paper/paper.ts`,
        "--recording",
        `${home}/.cache/tidepool`,
      ],
      environment,
    );
    assert.equal(own.code, 0, own.stdout + own.stderr);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("the home folder is recognised by its real path: HOME behind a link, or the project given through one", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-home-link-" });
  try {
    // The home folder's real path, and a link to it (as /home on a machine that mounts it elsewhere).
    const real = `${scene}/real-home`;
    const link = `${scene}/home-link`;
    await projectFolder(real);
    await Deno.mkdir(`${real}/.ssh`);
    await Deno.writeTextFile(`${real}/.ssh/id_rsa`, SECRET);
    await Deno.mkdir(`${real}/paper`);
    await Deno.writeTextFile(`${real}/paper/paper.ts`, PAPER);
    await runAuthor(`${real}/paper`, "paper.ts");
    await Deno.symlink(real, link);
    // A source in the home folder itself, with the bundle below it: the folder holding both is the home.
    await Deno.writeTextFile(`${real}/paper.ts`, PAPER);
    const cases = [
      { home: link, project: real, named: "HOME a link, the project by its real path" },
      { home: real, project: link, named: "HOME real, the project through the link" },
    ];
    for (const { home, project, named } of cases) {
      const { tmp, environment } = await reviewer(scene, home);
      const run = await reproduceCommand(
        [
          `${project}/paper/out/bundle`,
          `${project}/paper.ts`,
          "--recording",
          `${project}/.cache/tidepool`,
        ],
        environment,
      );
      assert.equal(run.code, 1, `${named}:\n${run.stdout}${run.stderr}`);
      assert.match(
        run.stderr,
        /it is your home folder, and reproduce copies the whole project/,
        named,
      );
      assert.ok(!(run.stdout + run.stderr).includes(SECRET), named);
      assert.deepEqual([...Deno.readDirSync(tmp)], [], `${named}: nothing copied`);
    }
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a project of many empty files or folders, or a recording of many files, is refused past the bound of files and folders", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-many-files-" });
  try {
    const { tmp, environment } = await reviewer(scene);
    const project = `${scene}/project`;
    await projectFolder(project);
    await Deno.writeTextFile(`${project}/paper.ts`, PAPER);
    await runAuthor(project, "paper.ts");
    const args = [
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      "--recording",
      `${project}/.cache/tidepool`,
      "--max-copy-files",
      "1000",
    ];
    // Within the bound it reproduces: the bound counts what the copy holds, not more.
    const within = await reproduceCommand(args, environment);
    assert.equal(within.code, 0, within.stdout + within.stderr);
    const members: [string, (at: string) => Promise<void>][] = [
      ["empty files", async (at) => {
        for (let i = 0; i < 1200; i++) await Deno.writeFile(`${at}/f${i}`, new Uint8Array());
      }],
      ["empty folders", async (at) => {
        for (let i = 0; i < 1200; i++) await Deno.mkdir(`${at}/d${i}`);
      }],
    ];
    for (const [what, make] of members) {
      for (const where of [`${project}/many`, `${project}/.cache/tidepool/many`]) {
        await Deno.mkdir(where);
        await make(where);
        const run = await reproduceCommand(args, environment);
        assert.equal(run.code, 1, `${what} in ${where}:\n${run.stdout}${run.stderr}`);
        assert.match(
          run.stderr,
          /holds more than 1000 files and folders \(with its recording\), the most a scratch copy may take/,
        );
        assert.match(run.stderr, /--max-copy-files/);
        assert.deepEqual([...Deno.readDirSync(tmp)], [], "no scratch copy left behind");
        await Deno.remove(where, { recursive: true });
      }
    }
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("a static import of a file outside the project is refused before the run", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-import-" });
  try {
    const { environment } = await reviewer(scene);
    await Deno.writeTextFile(`${scene}/credentials.json`, JSON.stringify({ key: SECRET }));
    const project = `${scene}/project`;
    await projectFolder(project);
    // Recorded honestly; the replay imports the reviewer's file and prints it.
    await Deno.writeTextFile(`${project}/paper.ts`, PAPER);
    await runAuthor(project, "paper.ts");
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import credentials from "${scene}/credentials.json" with { type: "json" };
console.error(JSON.stringify(credentials));
throw new Error(JSON.stringify(credentials));
${PAPER}`,
    );
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    const printed = run.stdout + run.stderr;
    assert.equal(run.code, 1, printed);
    assert.match(run.stderr, /paper\.ts imports files outside its project: .*credentials\.json/);
    assert.ok(!printed.includes(SECRET), "the file's content was never printed");
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});
