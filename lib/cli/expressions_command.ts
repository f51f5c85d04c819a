/**
 * `tidepool expressions`: every expression of the emotion-expression search
 * that matches the filters, every page, politely paced, into a table file
 * or standard output.
 *
 * @module
 */

import { ExpressionSearch } from "../expressions/expression_search.ts";
import type { SearchFilters } from "../expressions/types.ts";
import { CLIENT_FLAGS, type CommandSpec, counted, OUTPUT_OPTIONS } from "./_command.ts";
import { writeTable } from "./_output.ts";

/** The `expressions` subcommand. */
export const EXPRESSIONS_COMMAND: CommandSpec = {
  name: "expressions",
  summary: "every matching expression of the emotion-expression search, every page, as a table",
  usage: "expressions <url> [--emotion E]... [--pid P] [--keyword WORDS] [--to FILE]",
  arguments: [{ name: "url", description: "the expression search service's address" }],
  arity: [1, 1],
  options: {
    emotion: {
      type: "string",
      multiple: true,
      value: "E",
      description: "an emotion category such as 喜 (repeat for any of several)",
    },
    "body-part": {
      type: "string",
      multiple: true,
      value: "B",
      description: "a body part such as 目 (repeat for any of several)",
    },
    pid: { type: "string", value: "P", description: "one work's identifier" },
    keyword: { type: "string", value: "WORDS", description: "words that must all occur" },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
  },
  examples: [
    "tidepool expressions https://expressions.example --emotion 喜 --to joy.parquet",
    "tidepool expressions $EXPRESSIONS --pid 990000101 --to - | wc -l",
  ],
  async run(context, { positionals: [url] }) {
    const target = await context.output();
    const [emotions, parts] = [context.list("emotion"), context.list("body-part")];
    // The service's own vocabulary checks the values, with a did-you-mean, before the search.
    const filters = {
      emotion: emotions.length ? emotions : undefined,
      bodyPart: parts.length ? parts : undefined,
      pid: context.string("pid"),
      keyword: context.string("keyword"),
    } as SearchFilters;
    const search = new ExpressionSearch(url, context.clientOptions());
    const expressions = await search.searchAll(filters);
    const where = await writeTable(target, expressions, context.io.stdout);
    context.say(`expressions: ${counted(expressions.numRows(), "row")} to ${where}`);
    return 0;
  },
};
