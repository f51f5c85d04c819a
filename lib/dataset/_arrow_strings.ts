/**
 * Arrow string and list-of-string columns built straight into their buffers.
 * Flechette's builders encode one string at a time (an allocation each),
 * which made string columns most of the cost of writing a harvest: here a
 * column's text is encoded in one call and the offsets come from counting
 * UTF-8 lengths.
 *
 * @module
 */

import * as arrow from "@uwdata/flechette";

const encoder = new TextEncoder();

/** The UTF-8 length of a string (a lone surrogate counts as U+FFFD, as TextEncoder writes it). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // four bytes for the pair's two units
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/** A validity bitmap and null count; undefined bitmap when nothing is null. */
function validity(length: number, isValid: (i: number) => boolean) {
  const bits = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < length; i++) {
    if (isValid(i)) bits[i >> 3] |= 1 << (i & 7);
    else nullCount++;
  }
  return { validity: nullCount ? bits : new Uint8Array(0), nullCount };
}

function utf8Batch(strings: readonly (string | null)[]): arrow.Batch<string> {
  const offsets = new Int32Array(strings.length + 1);
  let end = 0;
  const parts: string[] = [];
  for (let i = 0; i < strings.length; i++) {
    const text = strings[i];
    if (text !== null) {
      end += utf8Length(text);
      parts.push(text);
    }
    offsets[i + 1] = end;
  }
  const values = encoder.encode(parts.join(""));
  if (values.length !== end) throw new Error("UTF-8 length mismatch");
  const Utf8 = arrow.batchType(arrow.utf8());
  return new Utf8({
    length: strings.length,
    ...validity(strings.length, (i) => strings[i] !== null),
    type: arrow.utf8(),
    values,
    offsets,
  }) as arrow.Batch<string>;
}

/**
 * A utf8 column from strings and nulls.
 *
 * @param values Strings or null (anything else is null).
 * @returns The column.
 */
export function utf8Column(values: readonly unknown[]): arrow.Column<string> {
  const strings = values.map((value) => typeof value === "string" ? value : null);
  return new arrow.Column([utf8Batch(strings)]);
}

/**
 * A list<utf8> column from arrays of strings and nulls.
 *
 * @param values Arrays of strings (other elements become null) or null.
 * @returns The column.
 */
export function utf8ListColumn(values: readonly unknown[]): arrow.Column<unknown> {
  const offsets = new Int32Array(values.length + 1);
  const items: (string | null)[] = [];
  for (let i = 0; i < values.length; i++) {
    const list = values[i];
    if (Array.isArray(list)) {
      for (const item of list) items.push(typeof item === "string" ? item : null);
    }
    offsets[i + 1] = items.length;
  }
  const type = arrow.list(arrow.utf8());
  const List = arrow.batchType(type);
  const batch = new List({
    length: values.length,
    ...validity(values.length, (i) => Array.isArray(values[i])),
    type,
    offsets,
    children: [utf8Batch(items)],
  });
  return new arrow.Column([batch as arrow.Batch<unknown>]);
}
