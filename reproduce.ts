/**
 * Reproduces a paper's bundle from the command line: re-runs the notebook
 * or script that made it from its recording with the network denied, in a
 * scratch copy of its project, and compares every table digest with the
 * bundle's. Exits 0 only when every table comes out the same.
 *
 * ```sh
 * deno run -A jsr:@tidepool/tidepool/reproduce out/bundle analysis.ipynb
 * deno task reproduce out/bundle analysis.ipynb --recording .cache/tidepool
 * ```
 *
 * @module
 */

import { reproduceBundle } from "./lib/bundle/reproduce_bundle.ts";
import { tableText } from "./lib/notebook/table_text.ts";
import { TidepoolError } from "./lib/errors/errors.ts";

export { reproduceBundle };

const USAGE =
  "Usage: deno task reproduce <bundle folder> <notebook.ipynb or script.ts> [--recording <folder>] [-- <script arguments>]";

if (import.meta.main) {
  const args = [...Deno.args];
  const split = args.indexOf("--");
  const scriptArgs = split < 0 ? [] : args.splice(split).slice(1);
  const at = args.indexOf("--recording");
  const recording = at < 0 ? undefined : args.splice(at, 2)[1];
  const [bundle, source, ...rest] = args;
  if (!bundle || !source || rest.length > 0 || (at >= 0 && !recording)) {
    console.error(USAGE);
    Deno.exit(2);
  }
  try {
    const result = await reproduceBundle(bundle, source, { recording, args: scriptArgs });
    console.log(tableText(result.tables, { rows: result.tables.numRows(), maxChars: 20 }));
    console.log(result.summary);
    Deno.exit(result.ok ? 0 : 1);
  } catch (error) {
    if (!(error instanceof TidepoolError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
