/**
 * The `tidepool` command line, for those who harvest, mirror and check
 * without writing code: each subcommand reads one service into a table
 * (CSV, NDJSON, Parquet, JSON or Arrow, or standard output), or checks a
 * paper's bundle. `tidepool --help` lists them and `tidepool <command>
 * --help` explains one; `docs/cli.md` is the guide.
 *
 * ```sh
 * deno install -g -A -n tidepool jsr:@tidepool/tidepool/cli
 * tidepool harvest https://archive.example/acme/letters/api/oai --to letters.csv
 * deno task tidepool orders "$SUBGRAPH" --to orders.parquet   # from a clone of tidepool
 * ```
 *
 * @module
 */

import { runCli } from "./lib/cli/run_cli.ts";
import { EXIT } from "./lib/cli/exit_codes.ts";

export { runCli } from "./lib/cli/run_cli.ts";
export { EXIT } from "./lib/cli/exit_codes.ts";
export type { CommandIo } from "./lib/cli/_command.ts";

if (import.meta.main) {
  // A failure the command did not catch is still one line, never a stack trace.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    console.error(`tidepool: Unexpected error: ${String(event.reason?.message ?? event.reason)}`);
    Deno.exit(EXIT.internal);
  });
  Deno.exit(await runCli(Deno.args));
}
