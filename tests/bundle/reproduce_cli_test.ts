/**
 * The commands a reviewer types, as the bundle's page and the guides write
 * them: `reproduce` takes the recording folder as a third argument or as
 * `--recording`, and a usage error names the argument that was wrong; its
 * report says what it compared (the tables' Parquet digests) and sends the
 * reader to `verify` for the files, so an edited CSV is not taken for
 * checked; the page's `sha256sum -c` line and its `deno task` lines (for a
 * reviewer with a checkout) run as written, and its package commands name the
 * version that wrote the bundle and say they need it published.
 */

import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import {
  projectFolder,
  reproduceCommand,
  runAuthor,
  taskCommand,
  TIDEPOOL_MOD,
} from "./_paper_project.ts";
import { TIDEPOOL_VERSION } from "../../lib/version.ts";

const PAPER = `import * as aq from "arquero";
import { saveBundle } from "${TIDEPOOL_MOD}";
await saveBundle("out/bundle", { draft: true, tables: { counts: aq.table({ n: [1, 2, 3] }) } });
`;

async function paper(scene: string): Promise<string> {
  const project = `${scene}/project`;
  await projectFolder(project);
  await Deno.writeTextFile(`${project}/paper.ts`, PAPER);
  await runAuthor(project, "paper.ts");
  return project;
}

Deno.test("reproduce takes the recording positionally or as --recording; usage errors name the argument", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-cli-" });
  try {
    const project = await paper(scene);
    const [bundle, source, recording] = [
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      `${project}/.cache/tidepool`,
    ];
    const positional = await reproduceCommand([bundle, source, recording]);
    assert.equal(positional.code, 0, positional.stdout + positional.stderr);
    assert.match(positional.stdout, /reproduced: 1 of 1 tables/);

    const wrong: [string[], RegExp][] = [
      [[bundle, source, "--recordin", recording], /--recordin/],
      [[bundle, source, recording, "extra"], /Unexpected argument: extra/],
      [[bundle], /Missing the notebook or script/],
      [[bundle, source, recording, "--recording", recording], /recording is given twice/],
      [[bundle, source, "--recording"], /--recording/],
      [[bundle, source, "--max-copy-mb", "lots"], /--max-copy-mb lots/],
      [[bundle, source, "--max-copy-files", "0"], /--max-copy-files 0/],
      [[bundle, source, "--max-table-cells", "1.5"], /--max-table-cells 1\.5/],
    ];
    for (const [args, named] of wrong) {
      const run = await reproduceCommand(args);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, named, args.join(" "));
      assert.match(run.stderr, /Usage: reproduce /);
    }
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("reproduce says it compared Parquet digests, and points to verify for the files", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-cli-" });
  try {
    const project = await paper(scene);
    // The CSV edited: reproduce compares the tables it re-made, so it still says "same"...
    const csv = `${project}/out/bundle/counts.csv`;
    await Deno.writeTextFile(csv, (await Deno.readTextFile(csv)).replace("3", "4"));
    const run = await reproduceCommand([
      `${project}/out/bundle`,
      `${project}/paper.ts`,
      `${project}/.cache/tidepool`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // ...and says so, and where the files are checked.
    assert.match(run.stdout, /compared: each table's digest \(tableDigest of the Parquet file/);
    assert.match(run.stdout, /run verify on it/);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});

Deno.test("the page's commands: sha256sum -c and a checkout's tasks run as written, jsr: only once published", async () => {
  const scene = await Deno.makeTempDir({ prefix: "tidepool-cli-" });
  try {
    const project = await paper(scene);
    const bundle = `${project}/out/bundle`;
    // Deno's types have no DOM: the part of linkedom's the test reads.
    interface Node {
      tagName: string;
      textContent: string | null;
      children: Iterable<Node>;
    }
    const { document } = parseHTML(await Deno.readTextFile(`${bundle}/index.html`)) as unknown as {
      document: { querySelector(selector: string): Node };
    };
    // Each command with the paragraph that introduces it.
    const commands: { line: string; said: string }[] = [];
    let said = "";
    for (const child of document.querySelector("#check").children) {
      if (child.tagName === "P") said = child.textContent ?? "";
      if (child.tagName !== "PRE") continue;
      for (const line of (child.textContent ?? "").split("\n")) commands.push({ line, said });
    }
    const lines = commands.map((command) => command.line);
    // A reviewer with nothing but sha256sum, in the bundle's folder.
    const sums = lines.find((line) => line.startsWith("sha256sum"));
    assert.equal(sums, "sha256sum -c SHA256SUMS");
    const checked = await new Deno.Command("bash", {
      args: ["-c", sums],
      cwd: bundle,
      stdout: "piped",
    }).output();
    assert.equal(checked.code, 0, new TextDecoder().decode(checked.stdout));
    // A reviewer with a checkout of tidepool, in its folder: every task runs as the page writes it.
    const tasks = lines.filter((line) => line.startsWith("deno task "));
    assert.deepEqual(tasks.map((line) => line.split(" ")[2]), ["verify", "reproduce"]);
    for (const line of tasks) {
      const [task, ...args] = line.replace("deno task ", "")
        .replaceAll("<this folder>", bundle)
        .replaceAll("<notebook.ipynb or script.ts>", `${project}/paper.ts`)
        .replaceAll("<recording folder>", `${project}/.cache/tidepool`)
        .split(" ");
      assert.doesNotMatch(args.join(" "), /[<>]/, `a placeholder the test does not fill: ${line}`);
      const run = await taskCommand(task, args);
      assert.equal(run.code, 0, `${line}\n${run.stdout}${run.stderr}`);
    }
    // The package commands: after the checkout's, each introduced as needing the published package.
    const packaged = commands.filter(({ line }) => line.includes("jsr:@tidepool/tidepool"));
    assert.equal(packaged.length, 2, lines.join("\n"));
    for (const { line, said } of packaged) {
      assert.ok(line.includes(`jsr:@tidepool/tidepool@${TIDEPOOL_VERSION}/`), line);
      assert.match(said, /once tidepool [\d.]+ is published on JSR/i, line);
      assert.ok(lines.indexOf(line) > lines.findIndex((l) => l.startsWith("deno task ")), line);
    }
    assert.match(packaged[0].line, /^deno run --allow-read jsr:\S+\/verify \.$/);
    assert.match(packaged[1].line, /\/reproduce <this folder> .* --recording <recording folder>$/);
  } finally {
    await Deno.remove(scene, { recursive: true });
  }
});
