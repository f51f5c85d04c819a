/**
 * Reads the fenced TypeScript blocks of a Markdown file as runnable examples,
 * and type-checks and runs them as a user would: each block a script of its
 * own that imports tidepool by package name (`@tidepool/tidepool/...`), which
 * `--config` resolves to this checkout, in a folder of its own.
 */

import { childEnvironment } from "../_child_runs.ts";

const repository = new URL("../../", import.meta.url).pathname;

/** One fenced `ts` block and the printed output shown right after it, if any. */
export interface Example {
  /** The document it is in (`README.md`, `docs/plots.md`): with the line, how failures name it. */
  source: string;
  /** The line of the opening fence, 1-based: how failures name the block. */
  line: number;
  /** The block's text. */
  code: string;
  /** Fenced `ts ignore`: shown, never run. */
  ignored: boolean;
  /** The `text` block that follows the block with nothing but blank lines between. */
  output?: string;
}

const FENCE = /^```(\S*)(.*)$/;

/**
 * Every `ts`/`typescript` block of a Markdown text. A `text` block right after
 * one (blank lines only between) is what that block prints.
 */
export function readExamples(markdown: string, source = "README.md"): Example[] {
  const lines = markdown.split("\n");
  const examples: Example[] = [];
  let last: Example | undefined;
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    const body = lines.slice(i + 1, end).join("\n") + "\n";
    const [language, rest] = [open[1], open[2].trim().split(/\s+/)];
    const between = lines.slice(lastEnd + 1, i);
    if (language === "ts" || language === "typescript") {
      last = { source, line: i + 1, code: body, ignored: rest.includes("ignore") };
      examples.push(last);
    } else if (
      language === "text" && last && !last.output && between.every((l) => l.trim() === "")
    ) {
      last.output = body;
    }
    if (language !== "ts" && language !== "typescript") last = undefined;
    lastEnd = end;
    i = end;
  }
  return examples;
}

/**
 * What varies from run to run in printed output, and only that: the ephemeral
 * port of a loopback server (`127.0.0.1:PORT`) and elapsed times written
 * `in 1.2 s` or `took 12 ms`. Trailing spaces and the final newline do not
 * count either.
 */
export function normaliseOutput(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/\b(in|took) \d+(\.\d+)? (ms|s)\b/g, "$1 N s")
    // The time in a table's provenance line is when its answers arrived.
    .replace(/^(# \S+ · \S+ · )\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ( · )/gm, "$1TIME$2")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trimEnd();
}

/** The file an example is written to: named for its document and line, so errors point there. */
export function exampleFile(dir: string, example: Example): string {
  return `${dir}/${exampleName(example)}.ts`;
}

/** `readme_line_12`, `docs_plots_line_40`: a block's name in file names. */
export function exampleName(example: Example): string {
  const document = example.source.replace(/\.md$/i, "").replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();
  return `${document}_line_${example.line}`;
}

/** README.md and the guides it links (every Markdown file in docs/), as the examples' sources. */
export async function documentsWithExamples(): Promise<{ source: string; text: string }[]> {
  const sources = ["README.md"];
  for await (const entry of Deno.readDir(`${repository}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) sources.push(`docs/${entry.name}`);
  }
  sources.sort((a, b) => (a === "README.md" ? -1 : b === "README.md" ? 1 : a.localeCompare(b)));
  return await Promise.all(
    sources.map(async (source) => ({
      source,
      text: await Deno.readTextFile(`${repository}${source}`),
    })),
  );
}

/** Output of a child process. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `deno` with tidepool's config and lock, bounded in time; the child is killed on timeout. */
export async function deno(args: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  const signal = AbortSignal.timeout(timeoutMs);
  const child = new Deno.Command(Deno.execPath(), {
    args: [args[0], "--frozen", `--config=${repository}deno.json`, ...args.slice(1)],
    cwd,
    stdout: "piped",
    stderr: "piped",
    // The README's outputs are the sandbox defaults: no TIDEPOOL_* setting (a
    // sandbox seed, a cache mode) or wallet key of this process reaches the block.
    env: childEnvironment({ NO_COLOR: "1" }),
    clearEnv: true,
    signal,
  }).spawn();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
    timedOut: signal.aborted,
  };
}

/** Type-checks the examples' files in one `deno check`, as a user's editor would. */
export function checkExamples(files: string[], cwd: string): Promise<Ran> {
  return deno(["check", ...files], cwd, 300_000);
}

/** Runs one example's file with every permission, in its own folder. */
export function runExample(file: string, cwd: string, timeoutMs: number): Promise<Ran> {
  return deno(["run", "-A", file], cwd, timeoutMs);
}
