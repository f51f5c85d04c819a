/**
 * `tidepool sparql`: a SPARQL query against any endpoint (an archive
 * database's with its key), a SELECT read page by page past the endpoint's
 * cap, into a table file or standard output.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { Archive } from "../archive/archive.ts";
import { SparqlEndpoint } from "../sparql/sparql_endpoint.ts";
import { tableFromColumns } from "../table/build_table.ts";
import { UsageError } from "./exit_codes.ts";
import { CLIENT_FLAGS, type CommandSpec, counted, KEY_FLAG, OUTPUT_OPTIONS } from "./_command.ts";
import { writeTable } from "./_output.ts";
import { InputTooLargeError, readTextWithin } from "../fs/read_bounded.ts";

/** The most bytes a query file (or standard input) may hold: far above any query, far below memory. */
export const QUERY_FILE_LIMIT = 1024 * 1024;

/**
 * The parts of an archive database's SPARQL endpoint,
 * `<base>/api/<account>/<service>/<db>/sparql`, or undefined for any other endpoint.
 */
export function sparqlEndpoint(
  url: string,
): { base: string; account: string; service: string; db: string } | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`Not a URL: ${url}`, {
      hint: "Give the endpoint's whole URL, such as https://query.example/sparql",
    });
  }
  const parts = /^(.*)\/api\/([^/]+)\/([^/]+)\/([^/]+)\/sparql\/?$/.exec(parsed.pathname);
  if (!parts) return undefined;
  const [, prefix, account, service, db] = parts.map(decodeURIComponent);
  return { base: `${parsed.origin}${prefix}`, account, service, db };
}

/** The kind of a query (`SELECT`, `ASK`, ...), or undefined when it does not parse (the client then says why). */
async function queryType(query: string): Promise<string | undefined> {
  const { Parser } = (await import("sparqljs")).default;
  try {
    const parsed = new Parser().parse(query) as { queryType?: string };
    return parsed.queryType;
  } catch {
    return undefined;
  }
}

/** The query from the argument or the file (`-`: standard input), within {@linkcode QUERY_FILE_LIMIT}. */
async function readQuery(argument: string | undefined, file: string | undefined): Promise<string> {
  if ((argument === undefined) === (file === undefined)) {
    throw new UsageError("Give the query as the second argument or with --file, once", {
      hint: 'tidepool sparql <endpoint> "SELECT ..." or tidepool sparql <endpoint> --file query.rq',
    });
  }
  if (argument !== undefined) return argument;
  try {
    return await readTextWithin(file!, QUERY_FILE_LIMIT, `The query file ${file}`);
  } catch (error) {
    if (error instanceof InputTooLargeError) {
      throw new UsageError(error.message, {
        hint: "Give the path of a query file (.rq) of at most 1 MiB, or - for standard input",
      });
    }
    throw new UsageError(`Cannot read the query file ${file}`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "The system said",
      hint: "Give the path of a readable .rq file",
    });
  }
}

/** The `sparql` subcommand. */
export const SPARQL_COMMAND: CommandSpec = {
  name: "sparql",
  summary: "a SPARQL query against any endpoint, every page of a SELECT, as a table",
  usage: "sparql <endpoint> (<query> | --file q.rq) [--to FILE]",
  arguments: [
    {
      name: "endpoint",
      description:
        "the SPARQL endpoint: any (https://query.example/sparql), or an archive database's (…/api/<account>/dl/<db>/sparql, with --api-key-env)",
    },
    { name: "query", description: "the query, unless --file gives it" },
  ],
  arity: [1, 2],
  options: {
    file: {
      type: "string",
      value: "FILE",
      description: "read the query from FILE (- for standard input; at most 1 MiB)",
    },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
    ...KEY_FLAG,
  },
  examples: [
    'tidepool sparql https://archive.example/api/acme/dl/letters/sparql "SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }" --to titles.csv',
    "tidepool sparql $ENDPOINT --file places.rq --to - --format ndjson",
    'tidepool sparql http://127.0.0.1:8890/sparql "SELECT ?s ?label WHERE { ?s rdfs:label ?label }" --to labels.csv',
  ],
  async run(context, { positionals: [url, argument] }) {
    const archiveSite = sparqlEndpoint(url);
    // The key goes to the archive only, never to another host's endpoint.
    if (!archiveSite && context.string("api-key-env") !== undefined) {
      throw new UsageError("--api-key-env is for an archive database's endpoint", {
        hint:
          "Give the archive's endpoint (…/api/<account>/<service>/<db>/sparql), or leave the key out for this endpoint",
      });
    }
    const query = await readQuery(argument, context.string("file"));
    const target = await context.output();
    const kind = await queryType(query);
    // A SELECT is paged past the endpoint's cap; the others, and a query the local parser
    // cannot read (an undeclared prefix the server may know), are one answer.
    const paged = kind === "SELECT";
    let answer: ColumnTable | boolean;
    if (archiveSite) {
      const { base, account, service, db } = archiveSite;
      const archive = new Archive(base, {
        ...context.clientOptions(),
        account,
        db,
        apiKey: context.apiKey(),
      });
      answer = paged
        ? await archive.sparqlAll(query, { service })
        : await archive.sparql(query, { service });
    } else {
      const endpoint = new SparqlEndpoint(url, context.clientOptions());
      answer = paged ? await endpoint.all(query) : await endpoint.query(query);
    }
    const table = typeof answer === "boolean"
      ? tableFromColumns([{ name: "boolean", type: "boolean", values: [answer] }])
      : answer;
    const where = await writeTable(target, table, context.io.stdout);
    context.say(`sparql: ${counted(table.numRows(), "row")} to ${where}`);
    return 0;
  },
};
