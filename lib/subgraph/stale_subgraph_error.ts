/**
 * The error thrown instead of a stale answer when the caller asked for a
 * minimum block.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

/**
 * The subgraph has not indexed far enough (or reports indexing errors) for
 * a caller who set `minBlock`.
 *
 * @example Waiting for the subgraph to catch up
 * ```ts
 * const error = new StaleSubgraphError({ block: 11_000_000, minBlock: 11_459_549, reasons: ["behind"] });
 * console.log(error.block < error.minBlock);
 * ```
 */
export class StaleSubgraphError extends TidepoolError {
  /** The error kind, `"StaleSubgraphError"`, as shown in messages and stack traces. */
  override name = "StaleSubgraphError";
  /** The block the subgraph has indexed (-1 when it did not say). */
  readonly block: number;
  /** The block the caller required. */
  readonly minBlock: number;
  /** Why the subgraph is not trusted. */
  readonly reasons: readonly string[];

  /**
   * Creates the error with the reasons as details and a hint to wait or lower `minBlock`.
   *
   * @param state The indexed block, the required block and the reasons.
   */
  constructor(state: { block: number; minBlock: number; reasons: readonly string[] }) {
    super(
      `Subgraph is stale: indexed up to block ${state.block}, at least ${state.minBlock} required`,
      {
        details: state.reasons.join("; "),
        hint: "Wait for the subgraph to catch up (about 750 blocks a minute after a cold start) " +
          "and try again, or lower minBlock",
      },
    );
    this.block = state.block;
    this.minBlock = state.minBlock;
    this.reasons = state.reasons;
  }
}
