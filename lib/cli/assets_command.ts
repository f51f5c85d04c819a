/**
 * `tidepool assets`: an Ocean node's catalogue, every page, into a table
 * file or standard output.
 *
 * @module
 */

import { OceanNode } from "../ocean/ocean_node.ts";
import { UsageError } from "./exit_codes.ts";
import { CLIENT_FLAGS, type CommandSpec, counted, OUTPUT_OPTIONS } from "./_command.ts";
import { writeTable } from "./_output.ts";

/** The `assets` subcommand. */
export const ASSETS_COMMAND: CommandSpec = {
  name: "assets",
  summary: "an Ocean node's catalogue of assets, every page, as a table",
  usage: "assets <node-url> [--type dataset|algorithm] [--tag T]... [--text WORDS] [--to FILE]",
  arguments: [{ name: "node-url", description: "the Ocean node's address" }],
  arity: [1, 1],
  options: {
    type: { type: "string", value: "TYPE", description: "dataset or algorithm" },
    tag: {
      type: "string",
      multiple: true,
      value: "T",
      description: "assets with this tag (repeat for any of several)",
    },
    author: { type: "string", multiple: true, value: "NAME", description: "assets by this author" },
    text: {
      type: "string",
      value: "WORDS",
      description: "search name, description, author and tags",
    },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
  },
  examples: [
    "tidepool assets https://node.example --type dataset --tag weather --to weather.csv",
    "tidepool assets $NODE --to - --format ndjson | jq -r .name",
  ],
  async run(context, { positionals: [url] }) {
    const target = await context.output();
    const type = context.string("type");
    if (type !== undefined && type !== "dataset" && type !== "algorithm") {
      throw new UsageError(`Invalid --type ${type}`, { hint: "Give dataset or algorithm" });
    }
    const [tags, authors] = [context.list("tag"), context.list("author")];
    const node = new OceanNode(url, context.clientOptions());
    const assets = await node.searchAssets({
      type,
      tags: tags.length ? tags : undefined,
      author: authors.length ? authors : undefined,
      text: context.string("text"),
    });
    const where = await writeTable(target, assets, context.io.stdout);
    context.say(`assets: ${counted(assets.numRows(), "row")} to ${where}`);
    return 0;
  },
};
