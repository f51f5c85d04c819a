/**
 * The staleness check every table method runs once, on the `_meta` read
 * with the first page.
 *
 * @module
 */

import type { SubgraphMeta } from "./subgraph_info.ts";
import { toDate } from "../table/convert.ts";

/** The first block of the Ocean subgraph on its network. */
export const OCEAN_START_BLOCK = 11_459_549;

/** Reads a raw `_meta` answer; null when absent or unreadable. */
export function readMeta(raw: unknown): SubgraphMeta | null {
  if (!raw || typeof raw !== "object") return null;
  const meta = raw as {
    block?: { number?: unknown; hash?: unknown; timestamp?: unknown };
    hasIndexingErrors?: unknown;
    deployment?: unknown;
  };
  const number = Number(meta.block?.number);
  if (!Number.isFinite(number)) return null;
  return {
    block: number,
    blockHash: typeof meta.block?.hash === "string" ? meta.block.hash : null,
    blockTime: toDate(meta.block?.timestamp ?? null),
    hasIndexingErrors: meta.hasIndexingErrors === true,
    deployment: typeof meta.deployment === "string" ? meta.deployment : "",
  };
}

/**
 * Why an answer should not be trusted; empty when it can be. An empty answer
 * is a further reason ({@linkcode emptyAnswerReason}) that is reported but
 * never makes `minBlock` throw: the subgraph may simply hold no such rows.
 */
export function staleReasons(
  meta: SubgraphMeta | null,
  options: { startBlock: number; minBlock?: number },
): string[] {
  const reasons: string[] = [];
  if (!meta) {
    reasons.push("the subgraph did not answer _meta, so its indexed block is unknown");
    return reasons;
  }
  if (meta.block < options.startBlock) {
    reasons.push(
      `the subgraph has indexed only up to block ${meta.block}, before its start block ` +
        `${options.startBlock}, so it holds no data yet`,
    );
  }
  if (meta.hasIndexingErrors) {
    reasons.push(
      `the subgraph reports indexing errors (deployment ${meta.deployment || "unknown"}), ` +
        `so its data may be incomplete`,
    );
  }
  if (options.minBlock !== undefined && meta.block < options.minBlock) {
    reasons.push(`the subgraph is at block ${meta.block}, below the required ${options.minBlock}`);
  }
  return reasons;
}

/**
 * The reason given for an empty answer. The spec: before trusting an empty
 * answer, check _meta. The block moves only on blocks with events of the
 * contracts and lags after a cold start, so the answer is reported with the
 * block (and time) it was read at.
 */
export function emptyAnswerReason(meta: SubgraphMeta | null): string {
  if (!meta) return "the answer is empty and the subgraph's indexed block is unknown";
  const at = meta.blockTime ? ` (${meta.blockTime.toISOString()})` : "";
  return `the answer is empty at block ${meta.block}${at}; the subgraph lags the chain after a ` +
    `cold start, so this may only mean the data is not indexed yet`;
}
