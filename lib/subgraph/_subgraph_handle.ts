/**
 * What ties a `Subgraph` to its shared state, so that the subgraph's
 * actions (lib/subgraph/actions/) are free functions of the client, viem's
 * way: `orders(subgraph, options)`. The state stays private: it is reached
 * only through the client it was made for.
 *
 * @module
 */

import { clientStates } from "../http/_client_state.ts";
import type { SubgraphContext } from "./_context.ts";

/** What every subgraph action takes first: a `Subgraph` client. */
export interface SubgraphHandle {
  /** The endpoint URL. */
  readonly url: string;
}

const contexts = clientStates<SubgraphHandle, SubgraphContext>({
  message: "Not a Subgraph client: the subgraph actions take the client first",
  hint: "Pass the client made by new Subgraph(url, options), e.g. orders(subgraph, { since })",
});

/** Ties a new client to its state; `new Subgraph` calls it once. */
export const bindContext: (subgraph: SubgraphHandle, context: SubgraphContext) => void =
  contexts.bind;

/** The state of a client, refused for anything `new Subgraph` did not make. */
export const contextOf: (subgraph: SubgraphHandle) => SubgraphContext = contexts.of;
