/**
 * `tidepool verify` and `tidepool reproduce`: the reviewer's two checks of a
 * paper's bundle, as `verify.ts` and `reproduce.ts` run them, through their
 * functions in lib/bundle.
 *
 * @module
 */

import { reproduceBundle } from "../bundle/reproduce_bundle.ts";
import { verifyBundle } from "../bundle/verify_bundle.ts";
import { tableText } from "../notebook/table_text.ts";
import type { CommandSpec } from "./_command.ts";
import { EXIT } from "./exit_codes.ts";
import { terminalText } from "../errors/terminal_text.ts";

const encoder = new TextEncoder();

/** The `verify` subcommand. */
export const VERIFY_COMMAND: CommandSpec = {
  name: "verify",
  summary: "check a paper's bundle: every file and table as saved, nothing extra",
  usage: "verify <bundle folder>",
  arguments: [{ name: "bundle folder", description: "the folder saveBundle wrote" }],
  arity: [1, 1],
  options: {},
  examples: ["tidepool verify paper/bundle"],
  async run(context, { positionals: [dir] }) {
    const check = await verifyBundle(dir);
    const problems = check.ok
      ? ""
      : `${tableText(check.problems, { rows: check.problems.numRows() })}\n`;
    await context.io.stdout(encoder.encode(terminalText(`${problems}${check.summary}\n`)));
    return check.ok ? EXIT.ok : EXIT.failed;
  },
};

/** The `reproduce` subcommand. */
export const REPRODUCE_COMMAND: CommandSpec = {
  name: "reproduce",
  summary: "re-run a bundle's notebook or script from its recording, offline, and compare",
  usage: "reproduce <bundle folder> <notebook.ipynb or script.ts> [--recording DIR] [-- ARGS]",
  arguments: [
    { name: "bundle folder", description: "the folder saveBundle wrote" },
    { name: "notebook or script", description: "what made the bundle" },
  ],
  arity: [2, 2],
  passesRest: true,
  options: {
    recording: {
      type: "string",
      value: "DIR",
      description: "the recording it was run with (default .cache/tidepool beside it)",
    },
  },
  examples: ["tidepool reproduce out/bundle analysis.ipynb --recording .cache/paper"],
  async run(context, { positionals: [bundle, source], rest }) {
    const result = await reproduceBundle(bundle, source, {
      recording: context.string("recording"),
      args: rest,
    });
    const table = tableText(result.tables, { rows: result.tables.numRows(), maxChars: 20 });
    // The table names and the summary quote what the re-run wrote: shown inert.
    await context.io.stdout(encoder.encode(terminalText(`${table}\n${result.summary}\n`)));
    return result.ok ? EXIT.ok : EXIT.failed;
  },
};
