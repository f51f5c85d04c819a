/**
 * JSON table files: Arquero's column JSON, which keeps lists and objects.
 *
 * @module
 */

import { type ColumnTable, fromJSON, toJSON } from "arquero";

/** The bytes of a JSON file of the table. */
export function encodeJson(table: ColumnTable): Uint8Array {
  return new TextEncoder().encode(toJSON(table));
}

/** The table in a JSON file's text. */
export function decodeJson(text: string): ColumnTable {
  return fromJSON(text);
}
