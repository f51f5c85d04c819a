/**
 * Reproduces a paper's bundle from the command line: re-runs the notebook
 * or script that made it from its recording, confined to a scratch copy of
 * its project (no network, subprocess, FFI or environment), and compares
 * the Parquet digest of every table with the bundle's. Exits 0 only when
 * every table was re-made the same (a table from requests no recording
 * keeps fails it, unless `--allow-not-recorded`); exit 2 is a usage error.
 * The logic is `reproduceBundle` of `lib/bundle`; this file only parses
 * the arguments and prints.
 *
 * ```sh
 * deno run -A jsr:@tidepool/tidepool@0.1.0/reproduce out/bundle analysis.ipynb .cache/tidepool
 * deno task reproduce out/bundle analysis.ipynb --recording .cache/tidepool
 * ```
 *
 * @module
 */

import { reproduceBundle } from "./lib/bundle/reproduce_bundle.ts";
import { parseReproduceArgs, REPRODUCE_USAGE } from "./lib/bundle/_reproduce_args.ts";
import { tableText } from "./lib/notebook/table_text.ts";
import { TidepoolError } from "./lib/errors/errors.ts";
import { terminalText } from "./lib/errors/terminal_text.ts";

export { reproduceBundle };

if (import.meta.main) {
  const args = parseReproduceArgs(Deno.args);
  if ("error" in args) {
    console.error(terminalText(`reproduce: ${args.error}\n${REPRODUCE_USAGE}`));
    Deno.exit(2);
  }
  try {
    const result = await reproduceBundle(args.bundle, args.source, {
      recording: args.recording,
      args: args.scriptArgs,
      allowNotRecorded: args.allowNotRecorded,
      ...(args.maxCopyBytes ? { maxCopyBytes: args.maxCopyBytes } : {}),
      ...(args.maxCopyFiles ? { maxCopyFiles: args.maxCopyFiles } : {}),
      ...(args.maxTableCells ? { maxTableCells: args.maxTableCells } : {}),
    });
    console.log(
      terminalText(tableText(result.tables, { rows: result.tables.numRows(), maxChars: 20 })),
    );
    console.log(terminalText(result.summary));
    Deno.exit(result.ok ? 0 : 1);
  } catch (error) {
    if (!(error instanceof TidepoolError)) throw error;
    console.error(terminalText(error.message));
    Deno.exit(1);
  }
}
