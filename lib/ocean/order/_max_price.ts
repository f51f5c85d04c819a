/**
 * The cap of an order as text, checked at the door.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";

/**
 * A `maxPrice` as the decimal text orders compare against: text such as
 * `"1.5"`, or a plain number (`1.5`) written the same way. Anything else
 * (a negative amount, `1e-7`, `NaN`) is refused naming the option, before
 * anything is read or sent.
 *
 * @param value The option as given.
 * @returns The decimal text, or undefined when not given.
 */
export function maxPriceText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && /^\d+(\.\d+)?$/.test(text.trim())) return text.trim();
  throw new TidepoolError(
    `Invalid option maxPrice: expected a decimal amount such as "1.5", got ${
      typeof value === "string" ? JSON.stringify(value) : String(value)
    }`,
    { hint: 'Give the most you accept to pay as text ("1.5") or a plain number (1.5)' },
  );
}
