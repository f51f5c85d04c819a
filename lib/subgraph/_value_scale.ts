/**
 * The values of a subgraph's order field as whole numbers, so that a range
 * of them can be cut in the middle: integers (`Int`, `BigInt` as digit
 * strings) as they are, and hex ids (`0x…` addresses, transaction hashes,
 * compound ids that start with one) by their first sixteen hex digits.
 * Other values (words, decimals) have no scale and are read in one range.
 *
 * @module
 */

/** A way to turn values of one field into whole numbers and back. */
export interface ValueScale {
  /** The value as a whole number (hex ids by their leading digits). */
  toBig(value: unknown): bigint;
  /** A value of the field at that number, to bound a range with. */
  fromBig(value: bigint): unknown;
}

const HEX_DIGITS = 16;
const HEX_SPAN = 16n ** BigInt(HEX_DIGITS);

const numbers: ValueScale = {
  toBig: (value) => BigInt(Math.floor(Number(value))),
  fromBig: (value) => Number(value),
};

const digits: ValueScale = {
  toBig: (value) => BigInt(String(value)),
  fromBig: (value) => value.toString(),
};

/**
 * Hex ids compare as text in the subgraph; a bound of an even number of
 * lower-case digits after `0x` sorts exactly where its number does among
 * them (`0x8a` before `0x8a00ff…`, after `0x89ff…`).
 */
const hex: ValueScale = {
  toBig(value) {
    const text = String(value).slice(2).match(/^[0-9a-f]*/)![0].slice(0, HEX_DIGITS);
    return BigInt(`0x${text.padEnd(HEX_DIGITS, "0") || "0"}`);
  },
  fromBig(value) {
    const clamped = value < 0n ? 0n : value >= HEX_SPAN ? HEX_SPAN - 1n : value;
    let text = clamped.toString(16).padStart(HEX_DIGITS, "0");
    while (text.endsWith("00") && text.length > 2) text = text.slice(0, -2);
    return `0x${text}`;
  },
};

/**
 * The scale of a field, judged from two of its values (the lowest and the
 * highest seen), or undefined when they cannot be cut in the middle.
 *
 * @param low A low value of the field.
 * @param high A high value of the field.
 * @returns The scale, or undefined.
 */
export function valueScale(low: unknown, high: unknown): ValueScale | undefined {
  const both = (test: (value: unknown) => boolean) => test(low) && test(high);
  if (both((v) => typeof v === "number" && Number.isSafeInteger(v))) return numbers;
  if (both((v) => typeof v === "string" && /^-?\d+$/.test(v))) return digits;
  if (both((v) => typeof v === "string" && /^0x[0-9a-f]{2}/.test(v))) return hex;
  return undefined;
}

/**
 * Bounds that cut the values above `low` up to `high` into `parts` ranges:
 * strictly increasing, each above `low`, none repeated.
 *
 * @param scale The field's scale.
 * @param low The value the first range has reached (the bounds lie above it).
 * @param high The highest value.
 * @param parts How many ranges.
 * @returns The bounds between the ranges (at most `parts - 1`).
 */
export function cutPoints(
  scale: ValueScale,
  low: unknown,
  high: unknown,
  parts: number,
): unknown[] {
  const from = scale.toBig(low);
  const to = scale.toBig(high);
  const points: unknown[] = [];
  let previous = from;
  for (let i = 1; i < parts; i++) {
    const at = from + ((to - from + 1n) * BigInt(i)) / BigInt(parts);
    if (at <= previous) continue;
    const point = scale.fromBig(at);
    // A point that does not sort above the last (hex trimmed to its digits) is left out.
    if (scale.toBig(point) <= previous) continue;
    points.push(point);
    previous = scale.toBig(point);
  }
  return points;
}

/**
 * The middle of the values from `from` to below `below`, as a bound above
 * `from`, or undefined when no value lies between.
 *
 * @param scale The field's scale.
 * @param from A value reached.
 * @param below The range's upper bound.
 * @returns The middle, or undefined.
 */
export function middle(scale: ValueScale, from: unknown, below: unknown): unknown {
  const [point] = cutPoints(scale, from, scale.fromBig(scale.toBig(below) - 1n), 2);
  if (point === undefined) return undefined;
  return scale.toBig(point) < scale.toBig(below) ? point : undefined;
}
