/**
 * The shell blocks of docs/cli.md, and the README's block marked for this
 * test, run as written: in bash, one after another in one scratch folder,
 * with `tidepool` on the PATH (this checkout's cli.ts) and the sandbox's
 * addresses in `TIDEPOOL_OCEAN_NODE`, `TIDEPOOL_SUBGRAPH`, `TIDEPOOL_ARCHIVE`
 * and `TIDEPOOL_EXPRESSIONS`, as `tidepool sandbox` prints them. What a block
 * prints (standard output and error together) must be the `text` block after
 * it, up to the ports. A block fenced `sh ignore` (installing) is not run.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";
import { normaliseOutput } from "../packaging/_readme_examples.ts";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { SANDBOX_VARIABLES } from "../../lib/cli/sandbox_command.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MARKER = "<!-- run by tests/cli/cli_guide_test.ts -->";

/** A shell block and what it prints. */
interface ShellBlock {
  source: string;
  line: number;
  code: string;
  ignored: boolean;
  output?: string;
}

/** The `sh` blocks of a Markdown text, each with the `text` block right after it. */
function shellBlocks(markdown: string, source: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    const body = lines.slice(i + 1, end).join("\n") + "\n";
    const last = blocks.at(-1);
    if (open[1] === "sh") {
      blocks.push({ source, line: i + 1, code: body, ignored: open[2].includes("ignore") });
    } else if (open[1] === "text" && last && last.output === undefined) {
      const between = lines.slice(last.line + last.code.split("\n").length, i);
      if (between.every((line) => line.trim() === "")) last.output = body;
    }
    i = end;
  }
  return blocks;
}

/** The README's block after the marker. */
function readmeBlock(markdown: string): ShellBlock {
  const at = markdown.indexOf(MARKER);
  assert.ok(at >= 0, "README.md marks its command-line block");
  const offset = markdown.slice(0, at).split("\n").length;
  const [block] = shellBlocks(markdown.slice(at), "README.md");
  assert.ok(block?.output, "a sh block with its output follows the README's marker");
  return { ...block, line: block.line + offset - 1 };
}

Deno.test("docs/cli.md: every shell block runs against the sandbox and prints what the guide shows", async (t) => {
  const guide = shellBlocks(await Deno.readTextFile(`${ROOT}docs/cli.md`), "docs/cli.md");
  const blocks = [readmeBlock(await Deno.readTextFile(`${ROOT}README.md`)), ...guide];
  const ignored = guide.filter((block) => block.ignored);
  assert.equal(ignored.length, 1, "only the installation is not run");
  assert.ok(guide.length >= 10, `${guide.length} blocks`);
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-guide-" });
  try {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.mkdir(`${dir}/work`);
    const wrapper = `${dir}/bin/tidepool`;
    await Deno.writeTextFile(
      wrapper,
      `#!/bin/sh\nexec "${Deno.execPath()}" run -A --frozen --config="${ROOT}deno.json" "${ROOT}cli.ts" "$@"\n`,
    );
    await Deno.chmod(wrapper, 0o755);
    const services: Record<string, string> = {};
    for (const [service, name] of Object.entries(SANDBOX_VARIABLES)) {
      services[name] = sandbox.urls[service as keyof typeof SANDBOX_VARIABLES];
    }
    const env = childEnvironment({
      ...services,
      NO_COLOR: "1",
      PATH: `${dir}/bin:${Deno.env.get("PATH") ?? ""}`,
    });
    for (const block of blocks.filter((block) => !block.ignored)) {
      await t.step(`${block.source} line ${block.line}`, async () => {
        const { stdout, success } = await new Deno.Command("bash", {
          args: ["-c", `{\n${block.code}\n} 2>&1`],
          cwd: `${dir}/work`,
          env,
          clearEnv: true,
          stdout: "piped",
          signal: AbortSignal.timeout(300_000),
        }).output();
        const printed = new TextDecoder().decode(stdout);
        assert.ok(success, `${block.source} line ${block.line} failed:\n${printed}`);
        if (block.output !== undefined) {
          assert.equal(
            normaliseOutput(printed),
            normaliseOutput(block.output),
            `${block.source} line ${block.line} printed something else than the guide shows`,
          );
        }
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
