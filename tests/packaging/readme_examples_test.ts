/**
 * Every fenced TypeScript block of README.md and of the guides in docs/ is a
 * script a newcomer can copy:
 * it is type-checked and run against the sandbox it starts, and where the
 * README shows what it prints (a `text` block right after it), the printed
 * output must be that, up to what truly varies (ports and elapsed times, see
 * `normaliseOutput`). A block that cannot run is fenced `ts ignore`, begins
 * with a `// Not run:` comment saying why, and is counted here.
 */

import assert from "node:assert/strict";
import {
  checkExamples,
  documentsWithExamples,
  type Example,
  exampleFile,
  exampleName,
  normaliseOutput,
  readExamples,
  runExample,
} from "./_readme_examples.ts";

const repository = new URL("../../", import.meta.url).pathname;
const readme = await Deno.readTextFile(`${repository}README.md`);
const examples = (await documentsWithExamples()).flatMap(({ source, text }) =>
  readExamples(text, source)
);

/** Blocks fenced `ts ignore` on purpose; raising this needs a `// Not run:` reason in the block. */
const IGNORED_BLOCKS = 0;
/** Time one block may take, sandbox start (and a chain, for one of them) included. */
const TIME_LIMIT_MS = 180_000;
/** What to do when a block fails, said with every failure. */
const HOW_TO_FIX =
  "Each ts block of README.md is a whole script: import tidepool by package name " +
  "(@tidepool/tidepool/...), start what it needs (`await using sandbox = await startSandbox()` from " +
  "@tidepool/tidepool/sandbox) and declare every name it uses; a text block right after it must be " +
  "exactly what it prints. A block that truly cannot run is fenced `ts ignore`, begins with " +
  "`// Not run: why`, and is counted in IGNORED_BLOCKS in tests/packaging/readme_examples_test.ts";

/** Writes the examples to files in a fresh folder, each with a folder of its own to run in. */
async function writeExamples(list: Example[]): Promise<{ root: string; files: string[] }> {
  const root = await Deno.makeTempDir({ prefix: "tidepool-readme-" });
  const files = [];
  for (const example of list) {
    const file = exampleFile(root, example);
    await Deno.writeTextFile(file, example.code);
    await Deno.mkdir(`${root}/run_${exampleName(example)}`);
    files.push(file);
  }
  return { root, files };
}

/** Runs one example and compares what it printed with what the README shows. */
async function runAndCompare(example: Example, root: string): Promise<void> {
  const result = await runExample(
    exampleFile(root, example),
    `${root}/run_${exampleName(example)}`,
    TIME_LIMIT_MS,
  );
  const where = `${example.source} line ${example.line}`;
  assert.ok(!result.timedOut, `${where} took longer than ${TIME_LIMIT_MS / 1000} s`);
  assert.equal(result.code, 0, `${where} failed:\n${result.stderr.slice(-3000)}\n${HOW_TO_FIX}`);
  if (example.output !== undefined) {
    assert.equal(
      normaliseOutput(result.stdout),
      normaliseOutput(example.output),
      `${where} printed something else than the README shows (${HOW_TO_FIX})`,
    );
  }
}

Deno.test("README: ts blocks are counted and opted out only visibly", () => {
  assert.ok(examples.length >= 10, `only ${examples.length} ts blocks found`);
  const ignored = examples.filter((example) => example.ignored);
  for (const example of ignored) {
    assert.match(
      example.code,
      /^\/\/ Not run: \S/,
      `${example.source} line ${example.line} is fenced ts ignore without a first line "// Not run: why"`,
    );
  }
  assert.equal(
    ignored.length,
    IGNORED_BLOCKS,
    `ts ignore blocks at ${ignored.map((e) => `${e.source}:${e.line}`).join(", ")}. ${HOW_TO_FIX}`,
  );
});

Deno.test("README: every ts block type-checks and runs against the sandbox", async (t) => {
  const runnable = examples.filter((example) => !example.ignored);
  const { root, files } = await writeExamples(runnable);
  try {
    const checked = await checkExamples(files, root);
    assert.equal(
      checked.code,
      0,
      `deno check of the README and guide blocks failed (files <document>_line_N.ts: the block ` +
        `at line N of that document):\n${checked.stderr}\n${HOW_TO_FIX}`,
    );
    for (const example of runnable) {
      await t.step(`${example.source} line ${example.line}`, () => runAndCompare(example, root));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("README: a broken block fails the check, the run or the comparison", async () => {
  const markdown = [
    "```ts",
    'const n: number = "one";',
    "```",
    "",
    "```ts",
    'throw new Error("broken at run time");',
    "```",
    "",
    "```ts",
    'console.log("served on http://127.0.0.1:4321 in 12 ms");',
    "```",
    "",
    "```text",
    "served on http://127.0.0.1:5555 in 9.5 s",
    "```",
    "",
    "```ts",
    "console.log(2 + 2);",
    "```",
    "",
    "```text",
    "5",
    "```",
  ].join("\n");
  const [typeError, throws, prints, wrong] = readExamples(markdown);
  const { root, files } = await writeExamples([typeError, throws, prints, wrong]);
  try {
    const checked = await checkExamples([files[0]], root);
    assert.notEqual(checked.code, 0);
    assert.match(checked.stderr, /readme_line_1\.ts/);
    await assert.rejects(() => runAndCompare(throws, root), /line 5 failed:[\s\S]*broken at run/);
    await runAndCompare(prints, root); // the port and the time vary, nothing else
    await assert.rejects(() => runAndCompare(wrong, root), /line 17 printed something else/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("README: a block runs without this process's TIDEPOOL_* settings and wallet key", async () => {
  const [example] = readExamples([
    "```ts",
    'console.log(Deno.env.get("TIDEPOOL_SANDBOX_SEED") ?? "no seed");',
    'console.log(Deno.env.get("OCEAN_PRIVATE_KEY") ?? "no key");',
    "```",
    "",
    "```text",
    "no seed",
    "no key",
    "```",
  ].join("\n"));
  const { root } = await writeExamples([example]);
  const before = ["TIDEPOOL_SANDBOX_SEED", "OCEAN_PRIVATE_KEY"].map((name) => Deno.env.get(name));
  try {
    Deno.env.set("TIDEPOOL_SANDBOX_SEED", "3");
    Deno.env.set("OCEAN_PRIVATE_KEY", `0x${"1".repeat(64)}`);
    await runAndCompare(example, root);
  } finally {
    for (const [i, name] of ["TIDEPOOL_SANDBOX_SEED", "OCEAN_PRIVATE_KEY"].entries()) {
      if (before[i] === undefined) Deno.env.delete(name);
      else Deno.env.set(name, before[i]!);
    }
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("README: every notebook in notebooks/ is listed", () => {
  const names = [...Deno.readDirSync(`${repository}notebooks`)]
    .filter((entry) => entry.name.endsWith(".ipynb") && !entry.name.startsWith("_"))
    .map((entry) => entry.name);
  assert.ok(names.length > 0);
  const missing = names.filter((name) => !readme.includes(`(notebooks/${name})`));
  assert.deepEqual(missing, [], "notebooks missing from the README's list");
});
