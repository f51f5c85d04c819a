/**
 * Parquet files that expand far past their size, for the tests of what
 * reads a stranger's tables: a run of equal values (kilobytes of Parquet,
 * millions of rows), and the same file with a footer that declares fewer
 * rows than its pages hold.
 */

import * as aq from "arquero";
import { tableToParquet } from "../../lib/dataset/parquet.ts";

/** `rows` equal values in one column: under 100 KB of Parquet for 15 million rows. */
export function parquetBomb(rows: number): Promise<Uint8Array> {
  return tableToParquet(aq.table({ n: new Int32Array(rows) }));
}

/** The varint of Thrift's compact protocol for a zigzag-encoded i64. */
function varint(value: number): number[] {
  let n = value * 2; // zigzag of a positive number
  const bytes: number[] = [];
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return bytes;
}

/**
 * A Parquet bomb whose footer declares `declared` rows (the file's, the row
 * group's and the column's counts) while its pages still hold `rows`: the
 * footer is rewritten and its length fixed, the pages left as they are.
 */
export async function lyingFooter(rows: number, declared: number): Promise<Uint8Array> {
  const bytes = await parquetBomb(rows);
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(
    bytes.length - 8,
    true,
  );
  const start = bytes.length - 8 - footerLength;
  const from = varint(rows);
  const to = varint(declared);
  const footer: number[] = [];
  let replaced = 0;
  for (let i = start; i < bytes.length - 8;) {
    if (from.every((byte, j) => bytes[i + j] === byte)) {
      footer.push(...to);
      i += from.length;
      replaced++;
    } else footer.push(bytes[i++]);
  }
  if (replaced < 2) {
    throw new Error(`the footer holds the row count ${replaced} times, not 2 or more`);
  }
  const out = new Uint8Array(start + footer.length + 8);
  out.set(bytes.subarray(0, start), 0);
  out.set(footer, start);
  new DataView(out.buffer).setUint32(start + footer.length, footer.length, true);
  out.set(new TextEncoder().encode("PAR1"), start + footer.length + 4);
  return out;
}
