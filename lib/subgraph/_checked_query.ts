/**
 * A single query (not paged) that reads `_meta` beside its answer and runs
 * the same staleness check as the tables.
 *
 * @module
 */

import type { SubgraphContext } from "./_context.ts";
import { META_SELECTION } from "./_document.ts";
import { emptyAnswerReason, readMeta, staleReasons } from "./_staleness.ts";
import { StaleSubgraphError } from "./stale_subgraph_error.ts";

/** Runs `body` (a selection that includes no `_meta`) with `_meta` added, then checks it. */
export async function checkedQuery(
  context: SubgraphContext,
  label: string,
  document: { variables: string; body: string },
  variables: Record<string, unknown>,
  isEmpty: (data: Record<string, unknown>) => boolean,
  minBlock: number | undefined,
): Promise<Record<string, unknown>> {
  const text = `query tidepool${document.variables ? `(${document.variables})` : ""} { ` +
    `${document.body} _meta { ${META_SELECTION} } }`;
  const data = await context.send(text, variables);
  const meta = readMeta(data._meta);
  const required = minBlock ?? context.minBlock;
  const reasons = staleReasons(meta, { startBlock: context.startBlock, minBlock: required });
  if (reasons.length && required !== undefined) {
    throw new StaleSubgraphError({ block: meta?.block ?? -1, minBlock: required, reasons });
  }
  if (isEmpty(data)) reasons.push(emptyAnswerReason(meta));
  if (reasons.length) {
    context.http.warn(`Subgraph answer for ${label} may be stale: ${reasons.join("; ")}`);
  }
  return data;
}
