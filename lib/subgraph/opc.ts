/**
 * The Ocean Protocol Community fee settings, or null: the subgraph starts
 * at block 11,459,549, after the OPC contract was set up, so on this network
 * null is the normal answer, not an error.
 *
 * @module
 */

import type { SubgraphContext } from "./_context.ts";
import { checkedQuery } from "./_checked_query.ts";
import { ids } from "./_token_fields.ts";

/** The OPC fee settings. */
export interface OpcRecord {
  /** The OPC entity id. */
  id: string;
  /** Fee in percent for swaps involving approved tokens, as exact decimal text. */
  swapOceanFee: string | null;
  /** Fee in percent for swaps involving other tokens, as exact decimal text. */
  swapNonOceanFee: string | null;
  /** Addresses of the approved tokens. */
  approvedTokens: string[];
}

/**
 * Reads the OPC entity: by id when given, else the first one.
 *
 * @param context The subgraph client state.
 * @param id The OPC id, when known.
 * @returns The settings, or null when the subgraph has none (normal here).
 *
 * @example Fees, when the subgraph has them
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const opc = await sg.opc();
 * console.log(opc === null ? "no OPC entity on this subgraph" : opc.swapOceanFee);
 * ```
 */
export async function fetchOpc(context: SubgraphContext, id?: string): Promise<OpcRecord | null> {
  const fields = "id swapOceanFee swapNonOceanFee approvedTokens { id }";
  const data = await checkedQuery(
    context,
    "opc",
    id === undefined
      ? { variables: "", body: `opcs(first: 1) { ${fields} }` }
      : { variables: "$id: ID!", body: `opc(id: $id) { ${fields} }` },
    id === undefined ? {} : { id: id.toLowerCase() },
    // null is the normal answer: never report it as a sign of staleness
    () => false,
    undefined,
  );
  const raw = (id === undefined ? (data.opcs as unknown[] | null)?.[0] : data.opc) as
    | Record<string, unknown>
    | null
    | undefined;
  if (!raw) return null;
  const text = (value: unknown) => typeof value === "string" ? value : null;
  return {
    id: String(raw.id),
    swapOceanFee: text(raw.swapOceanFee),
    swapNonOceanFee: text(raw.swapNonOceanFee),
    approvedTokens: ids(raw.approvedTokens),
  };
}
