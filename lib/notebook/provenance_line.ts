/**
 * One line that says where a table came from, for the notebook display and
 * the terminal: the call, the service, when, the rows and the service's
 * own "as of".
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { provenance } from "../table/provenance.ts";

/** How each "as of" field reads in the line; others read as `name value`. */
const AS_OF_LABELS: Readonly<Record<string, string>> = {
  nodeVersion: "node",
  block: "block",
  blockTime: "mined",
  chainId: "chain",
  responseDate: "response",
  latestDatestamp: "newest record",
  endpoint: "endpoint",
  at: "list at",
  deployment: "deployment",
};

/**
 * The provenance of a table as one line starting with `#`, or undefined
 * for a table no tidepool call returned.
 *
 * @param table Any Arquero table.
 * @returns `# operation · service · time · rows · as of …` (`# operation, page 2 · …` for a page of a page-by-page read).
 *
 * @example A table made here has no line
 * ```ts
 * import * as aq from "arquero";
 * console.log(provenanceLine(aq.table({ n: [1] }))); // undefined
 * ```
 */
export function provenanceLine(table: ColumnTable): string | undefined {
  const from = provenance(table);
  if (!from) return undefined;
  const asOf = Object.entries(from.asOf)
    .map(([name, value]) => `${AS_OF_LABELS[name] ?? name} ${shortTime(value)}`)
    .join(", ");
  return [
    `# ${from.operation}${from.page === undefined ? "" : `, page ${from.page}`}`,
    from.service,
    shortTime(from.endedAt),
    `${from.rows.toLocaleString("en-US")} rows`,
    ...(asOf ? [`as of ${asOf}`] : []),
  ].join(" · ");
}

/** An ISO 8601 time without its milliseconds; anything else as it is. */
function shortTime(value: string | number): string {
  return typeof value === "string"
    ? value.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+Z$/, "$1Z")
    : String(value);
}
