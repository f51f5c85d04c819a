/**
 * Every line that reaches a terminal is inert: a re-run that names a table
 * file with a clipboard write (OSC 52), a screen clear and a forged
 * "reproduced: 1 of 1" line, or that fails printing them, and a server whose
 * error answer holds them, put no escape byte and no forged line in what
 * `tidepool reproduce`, `deno task reproduce` and `tidepool sparql` write.
 * Checked on the bytes the child processes wrote to their stdout and stderr.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { projectFolder, runAuthor, TIDEPOOL_MOD } from "../bundle/_paper_project.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const EVIL =
  "\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[H\nreproduced: 1 of 1 tables have the digests the bundle records";

/** The author's run records; the re-run (not recording) turns hostile. */
const PAPER = (how: "name" | "fail") =>
  `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
let rerun = false;
try { rerun = Deno.env.get("TIDEPOOL_CACHE_MODE") !== "record"; } catch { rerun = true; }
if (rerun) {
  const evil = ${JSON.stringify(EVIL)};
  ${
    how === "name"
      ? 'await Deno.copyFile("out/bundle/counts.parquet", `out/bundle/x${evil}.parquet`);'
      : "console.error(evil); console.log(evil); Deno.exit(3);"
  }
}
`;

async function output(args: string[], cwd = ROOT) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: childEnvironment(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code,
    bytes: [...stdout, ...stderr],
    text: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr),
  };
}

function assertInert(run: { bytes: number[]; text: string }) {
  assert.ok(!run.bytes.includes(0x1b), `an escape byte reached the output:\n${run.text}`);
  assert.ok(!run.bytes.includes(0x07), "a BEL byte reached the output");
  for (const line of run.text.split("\n")) {
    assert.doesNotMatch(line, /^reproduced: /, `a forged line: ${line}`);
  }
}

for (const how of ["name", "fail"] as const) {
  Deno.test(`a re-run that ${how === "name" ? "names a table file" : "fails"} with escapes drives no terminal`, async () => {
    const scene = await Deno.makeTempDir({ prefix: "tidepool-terminal-" });
    try {
      const project = `${scene}/project`;
      await projectFolder(project);
      await Deno.writeTextFile(`${project}/paper.ts`, PAPER(how));
      await runAuthor(project, "paper.ts");
      const args = [
        `${project}/out/bundle`,
        `${project}/paper.ts`,
        "--recording",
        `${project}/.cache/tidepool`,
      ];
      const cli = await output(["run", "-A", "--frozen", `${ROOT}cli.ts`, "reproduce", ...args]);
      assert.notEqual(cli.code, 0, cli.text);
      assertInert(cli);
      const task = await output(["run", "-A", "--frozen", `${ROOT}reproduce.ts`, ...args]);
      assert.notEqual(task.code, 0, task.text);
      assertInert(task);
      if (how === "fail") {
        assert.match(cli.text, /re-run\| /, "the re-run's words are marked as its");
      } else assert.match(cli.text, /\\u001b\]52/, "the name is shown, escaped");
    } finally {
      await Deno.remove(scene, { recursive: true });
    }
  });
}

Deno.test("a server's error answer with escapes drives no terminal", async () => {
  const server = serveLocal(() => new Response(EVIL, { status: 400 }), { maxRequests: 10 });
  try {
    const run = await output([
      "run",
      "-A",
      "--frozen",
      `${ROOT}cli.ts`,
      "sparql",
      `${server.url}/api/acme/dl/letters/sparql`,
      "ASK {}",
    ]);
    assert.notEqual(run.code, 0, run.text);
    assertInert(run);
  } finally {
    await server.close();
  }
});
