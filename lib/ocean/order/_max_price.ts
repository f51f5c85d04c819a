/**
 * The cap of an order, checked at the door. Its unit is never a node's to
 * choose: an amount alone (`"2"`) is in the token the chain's exchange
 * prices the datatoken in, and a payment in any other token needs a cap of
 * its own, by the token's address (`{ "0xToken": "0.01" }`).
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";

/**
 * The most an order may take from the wallet, every part counted (the
 * datatoken's price with the exchange's swap fees, the provider fee, the
 * market fees):
 *
 * - an amount in whole tokens (`"2"`, or `2`): in the token the datatoken's
 *   exchange sells it for, as the chain says. Any payment in another token
 *   (a provider fee in a token the node picked, any fee of a free datatoken)
 *   is refused, naming the token and the amount;
 * - amounts per token address (`{ "0x…Ocean": "2", "0x…USDC": "0.5" }`):
 *   each token's total within its own cap, and a payment in a token not
 *   listed refused. One address in two spellings (checksummed and lower
 *   case) is refused as ambiguous.
 *
 * The cap holds for everything one call pays: every order of a paid compute
 * job together, not each order on its own. Without a cap, only the
 * datatoken's price as the chain's exchange lists it is paid; any fee
 * above zero is refused until a cap allows it (docs/SAFETY.md).
 */
export type MaxPrice = string | number | Readonly<Record<string, string | number>>;

/** A cap as orders compare against it: text for the price token, or text per lower-case token address. */
export type PriceCap = string | Readonly<Record<string, string>>;

/**
 * A `maxPrice` as the decimal text orders compare against: text such as
 * `"1.5"`, or a plain number (`1.5`) written the same way. Anything else
 * (a negative amount, `1e-7`, `NaN`) is refused naming the option, before
 * anything is read or sent.
 *
 * @param value The option as given.
 * @param what How to name the value in the error.
 * @returns The decimal text, or undefined when not given.
 */
export function maxPriceText(value: unknown, what = "maxPrice"): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && /^\d+(\.\d+)?$/.test(text.trim())) return text.trim();
  throw new TidepoolError(
    `Invalid option ${what}: expected a decimal amount such as "1.5", got ${
      typeof value === "string" ? JSON.stringify(value) : String(value)
    }`,
    {
      hint:
        'Give the most you accept to pay as text ("1.5") or a plain number (1.5), or one per token address ({ "0x…": "1.5" })',
    },
  );
}

/**
 * A `maxPrice` checked at the door: an amount, or amounts keyed by token
 * address (each `0x` and 40 hex digits, each amount as {@linkcode maxPriceText}
 * takes it). Anything else is refused before anything is read or sent.
 *
 * @param value The option as given.
 * @returns The cap, or undefined when not given.
 */
export function priceCap(value: unknown): PriceCap | undefined {
  if (value === undefined || typeof value === "string" || typeof value === "number") {
    return maxPriceText(value);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return maxPriceText(value);
  const caps: Record<string, string> = {};
  const spelled = new Map<string, string>();
  for (const [token, amount] of Object.entries(value)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(token)) {
      throw new TidepoolError(
        `Invalid option maxPrice: ${JSON.stringify(token.slice(0, 60))} is not a token address`,
        {
          hint:
            'Key each cap by the token\'s address, as the quote\'s totals show it ({ "0x…": "1.5" }); a symbol is the token\'s own word, not a unit tidepool trusts',
        },
      );
    }
    const key = token.toLowerCase();
    const said = maxPriceText(amount, `maxPrice["${token}"]`)!;
    const earlier = spelled.get(key);
    if (earlier !== undefined) {
      // Two spellings of one address (checksummed and lower case) are one token:
      // keeping either cap silently could keep the looser one.
      throw new TidepoolError(
        `Invalid option maxPrice: token ${key} is capped twice (${JSON.stringify(earlier)}: "${
          caps[key]
        }" and ${JSON.stringify(token)}: "${said}")`,
        {
          hint:
            "Nothing was read or sent. An address names one token whatever its letter case: give each token one cap",
        },
      );
    }
    spelled.set(key, token);
    caps[key] = said;
  }
  if (Object.keys(caps).length === 0) {
    throw new TidepoolError("Invalid option maxPrice: no token is capped", {
      hint: 'Give at least one token address and its cap ({ "0x…": "1.5" }), or leave maxPrice out',
    });
  }
  return caps;
}
