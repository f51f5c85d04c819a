/**
 * `tidepool orders`: every order of an Ocean subgraph, all pages at one
 * block, into a table file or standard output.
 *
 * @module
 */

import { Subgraph } from "../subgraph/subgraph.ts";
import { subgraphInfo } from "../subgraph/subgraph_info.ts";
import { CLIENT_FLAGS, type CommandSpec, counted, KEY_FLAG, OUTPUT_OPTIONS } from "./_command.ts";
import { writeTable } from "./_output.ts";
import { datatokenAddresses } from "./_datatoken_symbols.ts";

/** The largest GraphQL Int, the type of The Graph's block number. */
const GRAPHQL_INT_MAX = 2 ** 31 - 1;

/** The `orders` subcommand. */
export const ORDERS_COMMAND: CommandSpec = {
  name: "orders",
  summary: "every order of an Ocean subgraph, all pages at one block, as a table",
  usage: "orders <subgraph-url> [--datatoken A]... [--consumer A] [--block N] [--to FILE]",
  arguments: [{ name: "subgraph-url", description: "the subgraph's GraphQL endpoint" }],
  arity: [1, 1],
  options: {
    datatoken: {
      type: "string",
      multiple: true,
      value: "A",
      description:
        "orders of this datatoken, by address or by symbol when one datatoken has it (repeat for several)",
    },
    consumer: { type: "string", value: "ADDRESS", description: "orders consumed by this address" },
    payer: { type: "string", value: "ADDRESS", description: "orders paid by this address" },
    since: { type: "string", value: "DATE", description: "orders created at or after DATE" },
    until: { type: "string", value: "DATE", description: "orders created before DATE" },
    block: { type: "string", value: "N", description: "read at block N (default: the head)" },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
    ...KEY_FLAG,
  },
  examples: [
    "tidepool orders https://subgraph.example/subgraphs/name/oceanprotocol/ocean-subgraph --to orders.csv",
    "tidepool orders $SUBGRAPH --datatoken 0x1b08... --block 21000000 --to orders.parquet",
    "export GRAPH_KEY=...; tidepool orders $GATEWAY --api-key-env GRAPH_KEY --to - | head",
  ],
  async run(context, { positionals: [url] }) {
    const target = await context.output();
    const subgraph = new Subgraph(url, { ...context.clientOptions(), apiKey: context.apiKey() });
    // The Graph's block number is a GraphQL Int (32 bits).
    const atBlock = context.integer("block", 0, GRAPHQL_INT_MAX);
    const datatokens = await datatokenAddresses(subgraph, context.list("datatoken"), atBlock);
    const orders = await subgraph.orders({
      datatoken: datatokens.length ? datatokens : undefined,
      consumer: context.string("consumer"),
      payer: context.string("payer"),
      since: context.string("since"),
      until: context.string("until"),
      block: atBlock,
    });
    const where = await writeTable(target, orders, context.io.stdout);
    const info = subgraphInfo(orders);
    const block = info?.block === null || info?.block === undefined
      ? ""
      : ` at block ${info.block}`;
    context.say(`orders: ${counted(orders.numRows(), "row")}${block} to ${where}`);
    return 0;
  },
};
