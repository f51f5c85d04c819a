/**
 * Orders from the subgraph joined to the catalogue: each order with the
 * asset whose datatoken it was placed for.
 *
 * @module
 */

import { checkCall } from "./_option_rules.ts";
import type { ColumnTable } from "arquero";
import { deriveProvenance } from "../table/derived_provenance.ts";
import { TidepoolError } from "../errors/errors.ts";

/** Options of {@linkcode ordersWithAssets}. */
export interface OrdersWithAssetsOptions {
  /** The asset columns to add; default `did`, `name`, `type`, `author`, `tags`. */
  columns?: readonly string[];
}

const DEFAULT_COLUMNS = ["did", "name", "type", "author", "tags"] as const;

/**
 * Each order with the asset it was placed for, in the orders' own order:
 * the order's `datatoken` is matched, whatever its letter case, against
 * every address in the assets' `datatokens` lists. Orders for a datatoken
 * the assets table lacks keep their row, with nulls.
 *
 * @param orders An orders table (`Subgraph.orders`), with a `datatoken` column.
 * @param assets An assets table (`searchAssets`), with a `datatokens` column.
 * @param options Which asset columns to add.
 * @returns The orders table with the asset columns after its own; its
 *   provenance, when an input has one, is `ordersWithAssets` of theirs
 *   (see `provenance`).
 *
 * @example Orders with their asset names
 * ```ts
 * import * as aq from "arquero";
 * const orders = aq.table({ id: ["o2", "o1"], datatoken: ["0xAB", "0xcd"] });
 * const assets = aq.table({ did: ["did:op:1"], name: ["Tides"], datatokens: [["0xab"]] });
 * const joined = ordersWithAssets(orders, assets, { columns: ["did", "name"] });
 * console.log(joined.array("name")); // ["Tides", null]
 * ```
 */
export function ordersWithAssets(
  orders: ColumnTable,
  assets: ColumnTable,
  options: OrdersWithAssetsOptions = {},
): ColumnTable {
  checkCall("ordersWithAssets", options);
  const columns = options.columns ?? DEFAULT_COLUMNS;
  need(orders, ["datatoken"], "orders");
  const clash = columns.filter((name) => orders.columnNames().includes(name));
  if (clash.length > 0) {
    throw new TidepoolError(
      `Cannot join orders to assets: the orders already have a column ${clash.join(", ")}`,
      { hint: "Choose other asset columns with the columns option, or rename them first" },
    );
  }
  need(assets, ["datatokens", ...columns], "assets");
  const assetRow = new Map<string, number>();
  Array.from(assets.array("datatokens") as ArrayLike<unknown>).forEach((list, row) => {
    if (!Array.isArray(list)) return;
    for (const address of list) {
      if (typeof address === "string" && !assetRow.has(address.toLowerCase())) {
        assetRow.set(address.toLowerCase(), row);
      }
    }
  });
  const matched = Array.from(
    orders.array("datatoken") as ArrayLike<unknown>,
    (address) => typeof address === "string" ? assetRow.get(address.toLowerCase()) : undefined,
  );
  const added: Record<string, unknown[]> = {};
  for (const name of columns) {
    const values = assets.array(name) as ArrayLike<unknown>;
    added[name] = matched.map((row) => row === undefined ? null : values[row]);
  }
  return deriveProvenance(orders.assign(added), {
    operation: "ordersWithAssets",
    inputs: { orders, assets },
    params: {
      columns: options.columns,
    },
  });
}

function need(table: ColumnTable, names: readonly string[], what: string): void {
  const have = new Set(table.columnNames());
  const missing = names.filter((name) => !have.has(name));
  if (missing.length > 0) {
    throw new TidepoolError(
      `Cannot join orders to assets: the ${what} table has no column ${missing.join(", ")}`,
      {
        hint: what === "orders"
          ? "Pass a table from Subgraph.orders (with its datatoken column)"
          : "Pass a table from searchAssets or assetsTable",
      },
    );
  }
}
