/**
 * What produced a table: the service, the call, its parameters without
 * secrets, the service's own "as of", when it ran, and the cache keys of
 * its requests. Kept beside the table (a WeakMap keyed by the table), never
 * in its columns, so a table's data and its hash are what the service sent.
 *
 * Which tables have one:
 * - a table an adapter call returns (`searchAssets`, `Subgraph.orders`,
 *   `harvest`...): the call's;
 * - each page of a page-by-page read (`orderPages`, `searchPages`,
 *   `sparqlPages`, `harvestRecords`): the read's call with `page` set, and
 *   that page's own rows, requests and "as of";
 * - a table a tidepool helper derives from tables (`tags`, `kwic`,
 *   `ordersWithAssets`, `compareOrders`): the helper is the operation and
 *   each input's provenance is a parameter (`null` for an input without),
 *   with the inputs' services, times, agreed "as of" and cache keys (see
 *   `deriveProvenance`); derived only from tables without provenance, none;
 * - a table built from data the user holds (`assetsTable(ddos)`), or made
 *   or changed with Arquero verbs or `concatTables`: none, since no call of
 *   tidepool's is known to have produced it. Verbs are the user's own work
 *   on a table; a helper's result depends on tidepool's own rules, hence
 *   its version in the record;
 * - a table `readTable` reads: the provenance `saveTable` kept.
 *
 * @module
 */

import type { ColumnTable } from "arquero";

/** Where a table came from, as read by {@linkcode provenance}. */
export interface Provenance {
  /** The service base URL, without credentials or query string. */
  readonly service: string;
  /** The call that returned the table, e.g. `OceanNode.searchAssets`, `Subgraph.orders`, `OaiPmh.harvest`, `Archive.sparql`. */
  readonly operation: string;
  /** The parameters of the call, with secrets (keys, signatures, tokens, signers) removed. JSON-serialisable. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The tidepool version that made the table (the `version` of its `deno.json`). */
  readonly tidepoolVersion: string;
  /**
   * When the call's first answer arrived (ISO 8601). Replayed from the
   * cache, when it was recorded: a replay states the recording's times.
   */
  readonly startedAt: string;
  /** When the call's last answer arrived (ISO 8601); replayed, when it was recorded. */
  readonly endedAt: string;
  /**
   * The service's own "as of": `{ block, blockTime }` for the subgraph,
   * `{ responseDate, latestDatestamp }` for OAI-PMH, `{ endpoint }` for
   * SPARQL, `{ nodeVersion }` for an Ocean node; empty when the service
   * states none.
   */
  readonly asOf: Readonly<Record<string, string | number>>;
  /** The number of rows of the table the call returned. */
  readonly rows: number;
  /** The record/replay cache keys of the requests that produced the table, in order; empty when the cache is off. */
  readonly cacheKeys: readonly string[];
  /**
   * For a page of a page-by-page read (`Subgraph.orderPages`,
   * `Archive.searchPages`, `sparqlPages`, `ExpressionSearch.searchPages`,
   * `harvestRecords`), its 1-based number; the times, cache keys, "as of"
   * and rows are then that page's own. Absent for a whole table.
   */
  readonly page?: number;
  /**
   * True when a request of the call carried an API key: the table may hold
   * private data, and so does the recording it was read from. Absent otherwise.
   */
  readonly readWithKey?: boolean;
}

const provenances = new WeakMap<ColumnTable, Provenance>();

/**
 * Records where a table came from (used by the adapters and `readTable`).
 * The record is frozen; `rows` is taken from the table.
 *
 * @param table The table a call returns.
 * @param record Its provenance; `rows` may be left out.
 * @returns The same table.
 */
export function attachProvenance(
  table: ColumnTable,
  record: Omit<Provenance, "rows"> & { rows?: number },
): ColumnTable {
  provenances.set(table, frozenProvenance(record, table.numRows()));
  return table;
}

/**
 * A provenance record frozen, with its row count, for what carries one
 * other than a table (an OAI-PMH `HarvestPage`).
 *
 * @param record The provenance without its rows.
 * @param rows The row count.
 * @returns The frozen record.
 */
export function frozenProvenance(record: Omit<Provenance, "rows">, rows: number): Provenance {
  return Object.freeze({
    ...record,
    params: Object.freeze({ ...record.params }),
    asOf: Object.freeze({ ...record.asOf }),
    cacheKeys: Object.freeze([...record.cacheKeys]),
    rows,
  });
}

/**
 * Where a table came from: the service, the operation and its parameters
 * (secrets removed), the tidepool version, when it ran, the service's own
 * "as of", the row count and the cache keys of its requests.
 *
 * Provenance belongs to the table a tidepool call returned, and to each
 * page of a page-by-page read (with `page` set). Arquero verbs (`filter`,
 * `derive`, `select`, `reify`, ...) return new tables, which have none,
 * and so do `concatTables`, whose parts may come from different calls,
 * and `assetsTable` of DDOs you hold: read it from the returned table, or
 * save that table. A helper that derives a table from tables (`tags`,
 * `kwic`, `ordersWithAssets`, `compareOrders`) states itself as the
 * operation and its inputs' provenances as parameters. `readTable`
 * restores the provenance `saveTable` wrote.
 *
 * @param table Any Arquero table.
 * @returns Its provenance, or undefined for a table no tidepool call returned.
 *
 * @example Where a table came from
 * ```ts
 * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean/ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 5 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const assets = await node.searchAssets({ type: "dataset" });
 * const from = provenance(assets);
 * console.log(from?.operation, from?.service, from?.asOf); // OceanNode.searchAssets http://… { nodeVersion: … }
 * ```
 *
 * @example A table made here has none
 * ```ts
 * import * as aq from "arquero";
 * console.log(provenance(aq.table({ n: [1] }))); // undefined
 * ```
 */
export function provenance(table: ColumnTable): Provenance | undefined {
  return provenances.get(table);
}
