/**
 * `orders --datatoken` by symbol: what users know of a datatoken is its
 * symbol (`WITRAY-65`), the subgraph keys orders by address. A symbol is
 * taken when exactly one datatoken has it (matched exactly, as ERC-20
 * symbols are case-sensitive); several are refused naming each address.
 *
 * @module
 */

import type { Subgraph } from "../subgraph/subgraph.ts";
import { UsageError } from "./exit_codes.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The addresses of `--datatoken` values, symbols looked up.
 *
 * @param subgraph The subgraph asked.
 * @param values The `--datatoken` values: addresses or symbols.
 * @param block The block read, if given.
 * @returns The addresses, in the order given.
 * @throws {UsageError} For a symbol no datatoken has, or several do.
 */
export async function datatokenAddresses(
  subgraph: Subgraph,
  values: readonly string[],
  block: number | undefined,
): Promise<string[]> {
  const symbols = [...new Set(values.filter((value) => !ADDRESS.test(value)))];
  if (symbols.length === 0) return [...values];
  const tokens = await subgraph.tokens(
    { isDatatoken: true, symbol_in: symbols },
    block === undefined ? {} : { block },
  );
  const found = new Map<string, { address: string; name: string }[]>();
  for (const row of tokens.objects() as { address: string; symbol: string; name: string }[]) {
    found.set(row.symbol, [...(found.get(row.symbol) ?? []), row]);
  }
  return values.map((value) => {
    if (ADDRESS.test(value)) return value;
    const matches = found.get(value) ?? [];
    if (matches.length === 1) return matches[0].address;
    if (matches.length === 0) {
      throw new UsageError(`Invalid --datatoken ${value}: no datatoken has this symbol`, {
        hint:
          "Give the datatoken's address (0x...) or its exact symbol (letter case counts, as in WITRAY-65)",
      });
    }
    throw new UsageError(
      `Invalid --datatoken ${value}: ${matches.length} datatokens have this symbol: ${
        matches.map((token) => `${token.address} (${token.name})`).join(", ")
      }`,
      { hint: "Give --datatoken the address of the one you mean" },
    );
  });
}
