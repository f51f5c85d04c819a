/**
 * What ties a `Subgraph` to its shared state, so that the subgraph's
 * actions (lib/subgraph/actions/) are free functions of the client, viem's
 * way: `orders(subgraph, options)`. The state stays private: it is reached
 * only through the client it was made for.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import type { SubgraphContext } from "./_context.ts";

/** What every subgraph action takes first: a `Subgraph` client. */
export interface SubgraphHandle {
  /** The endpoint URL. */
  readonly url: string;
}

const contexts = new WeakMap<SubgraphHandle, SubgraphContext>();

/** Ties a new client to its state; `new Subgraph` calls it once. */
export function bindContext(subgraph: SubgraphHandle, context: SubgraphContext): void {
  contexts.set(subgraph, context);
}

/** The state of a client, refused for anything `new Subgraph` did not make. */
export function contextOf(subgraph: SubgraphHandle): SubgraphContext {
  const context = contexts.get(subgraph);
  if (!context) {
    throw new TidepoolError("Not a Subgraph client: the subgraph actions take the client first", {
      hint: "Pass the client made by new Subgraph(url, options), e.g. orders(subgraph, { since })",
    });
  }
  return context;
}
