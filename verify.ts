/**
 * Checks a paper's bundle from the command line: every file against the
 * SHA-256 its RO-Crate recorded, every table read back against its digest,
 * `datapackage.json` against the files, and nothing extra in the folder.
 * Exits 0 only when all of it holds.
 *
 * ```sh
 * deno run -A jsr:@tidepool/tidepool/verify paper/data
 * deno task verify paper/data   # from a clone of tidepool
 * ```
 *
 * @module
 */

import { verifyBundle } from "./lib/bundle/verify_bundle.ts";
import { tableText } from "./lib/notebook/table_text.ts";

export { verifyBundle };

if (import.meta.main) {
  const [dir, ...rest] = Deno.args;
  if (!dir || rest.length > 0 || dir.startsWith("-")) {
    console.error("Usage: deno task verify <bundle folder>");
    Deno.exit(2);
  }
  const check = await verifyBundle(dir);
  if (!check.ok) console.log(tableText(check.problems, { rows: check.problems.numRows() }));
  console.log(check.summary);
  Deno.exit(check.ok ? 0 : 1);
}
