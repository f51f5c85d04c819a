/**
 * List and object cells as text, for the formats that hold only scalars
 * (CSV, and Arrow when asked): JSON text, items joined, or the first item.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { columnTypes } from "../table/build_table.ts";

/** How `saveTable` writes list cells in formats that hold only scalars (CSV, Arrow). */
export type ListCells = "json" | "join" | "first";

/** How list cells are flattened: the rule and the separator of `join`. */
export interface FlatLists {
  lists: ListCells;
  separator: string;
}

/** The `lists` option checked; `json` when not given. */
export function checkLists(lists: ListCells | undefined): ListCells {
  if (lists === undefined) return "json";
  if (lists === "json" || lists === "join" || lists === "first") return lists;
  throw new TidepoolError(`Invalid lists option: ${String(lists)}`, {
    hint: 'Give "json", "join" or "first"',
  });
}

/** JSON text of a cell, bigints as text. */
function json(value: unknown): string {
  return JSON.stringify(value, (_key, item) => typeof item === "bigint" ? `${item}` : item);
}

/** A list item as text: strings as they are, anything else as JSON. */
function itemText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string") return item;
  if (item instanceof Date) return item.toISOString();
  return json(item);
}

/** Turns list and object cells of the given kinds into text, for formats that hold only scalars. */
export function scalarCells(
  table: ColumnTable,
  kinds: readonly string[],
  flat: FlatLists,
): ColumnTable {
  const types = columnTypes(table);
  const derived: Record<string, unknown[]> = {};
  for (const [name, type] of Object.entries(types)) {
    if (!kinds.includes(type)) continue;
    const values = table.array(name) as ArrayLike<unknown>;
    derived[name] = Array.from(values, (value) => {
      if (value === null || value === undefined) return null;
      if (!Array.isArray(value) || flat.lists === "json") return json(value);
      if (flat.lists === "first") return value.length ? itemText(value[0]) : null;
      return value.map(itemText).join(flat.separator);
    });
  }
  return Object.keys(derived).length ? table.assign(derived) : table;
}
