/**
 * Checks a paper's bundle from the command line: every file against the
 * SHA-256 its RO-Crate recorded, every table read back against its digest,
 * `datapackage.json` against the files, and nothing extra in the folder.
 * Exits 0 only when all of it holds.
 *
 * ```sh
 * deno task verify paper/data   # from a clone of tidepool, in its folder
 * deno run -A jsr:@tidepool/tidepool/verify paper/data   # once tidepool is published on JSR
 * deno task verify paper/data --max-table-cells 50000000   # read back larger tables
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { verifyBundle } from "./lib/bundle/verify_bundle.ts";
import { positiveWhole } from "./lib/bundle/_reproduce_args.ts";
import { tableText } from "./lib/notebook/table_text.ts";
import { terminalText } from "./lib/errors/terminal_text.ts";

export { verifyBundle };

const USAGE = "Usage: deno task verify <bundle folder> [--max-table-cells <N>]";

if (import.meta.main) {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      allowPositionals: true,
      options: { "max-table-cells": { type: "string" } },
    });
  } catch (error) {
    console.error(`verify: ${(error as Error).message.replace(/\. To specify.*$/s, "")}\n${USAGE}`);
    Deno.exit(2);
  }
  const [dir, ...rest] = parsed.positionals;
  const maxTableCells = positiveWhole(parsed.values["max-table-cells"]);
  if (!dir || rest.length > 0 || maxTableCells === null) {
    console.error(
      maxTableCells === null
        ? `verify: Invalid --max-table-cells ${
          parsed.values["max-table-cells"]
        }: give a whole number of cells\n${USAGE}`
        : USAGE,
    );
    Deno.exit(2);
  }
  const check = await verifyBundle(dir, maxTableCells ? { maxTableCells } : {});
  if (!check.ok) {
    console.log(terminalText(tableText(check.problems, { rows: check.problems.numRows() })));
  }
  console.log(terminalText(check.summary));
  Deno.exit(check.ok ? 0 : 1);
}
