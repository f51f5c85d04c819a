/**
 * The `--help` text of the command and of each subcommand, from their specs.
 *
 * @module
 */

import type { CommandSpec } from "./_command.ts";
import { EXIT } from "./exit_codes.ts";

/** What each exit code means, for the help of the command. */
const EXIT_LINES: readonly (readonly [number, string])[] = [
  [EXIT.ok, "done"],
  [EXIT.failed, "verify or reproduce found a difference; or another failure (a file not written)"],
  [
    EXIT.usage,
    "the command line was refused: a flag, an argument, a value, or a value the service does not know",
  ],
  [EXIT.network, "no answer: connection refused or cut, a name not resolved, a timeout"],
  [EXIT.http, "the service answered an HTTP error (4xx, 5xx, a key refused, a bot challenge)"],
  [EXIT.protocol, "the service answered something its protocol does not allow"],
  [EXIT.notRecorded, "the --replay recording lacks an answer"],
  [EXIT.internal, "a fault of tidepool itself"],
  [EXIT.busy, "another run holds this harvest's or mirror's state: try again later"],
  [EXIT.interrupted, "stopped by Ctrl-C: the same command resumes the run"],
  [EXIT.closedPipe, "the reader of standard output stopped early (| head)"],
];

/**
 * The help of the whole command: the subcommands and the exit codes.
 *
 * @param commands Every subcommand.
 * @returns The text.
 */
export function commandHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return [
    "tidepool: harvest, query and check the Ocean node and subgraph, the archive platform and the",
    "expression search from a shell, into CSV, NDJSON, Parquet or JSON tables.",
    "",
    "Usage: tidepool <command> [arguments] [options]",
    "       tidepool <command> --help",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    "",
    "Tables go to standard output (--to -, CSV or --format ndjson) or to the file --to names;",
    "progress and the summary go to standard error. Keys come only from environment variables",
    "named by --api-key-env. Exit codes:",
    ...EXIT_LINES.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`),
    "",
    "Example:",
    "  tidepool harvest https://archive.example/acme/letters/api/oai --to letters.parquet",
    "",
  ].join("\n");
}

/**
 * The help of one subcommand: usage, arguments, flags and examples.
 *
 * @param command The subcommand.
 * @returns The text.
 */
export function subcommandHelp(command: CommandSpec): string {
  const flags = Object.entries(command.options).map(([name, option]) => {
    const short = option.short ? `-${option.short}, ` : "";
    const value = option.type === "string" ? ` ${option.value ?? "VALUE"}` : "";
    return [`${short}--${name}${value}`, option.description] as const;
  });
  flags.push(["-h, --help", "this help"]);
  const width = Math.max(...flags.map(([flag]) => flag.length), 12) + 2;
  const argumentWidth = Math.max(...command.arguments.map(({ name }) => name.length + 2), 12) + 2;
  return [
    `tidepool ${command.name}: ${command.summary}`,
    "",
    `Usage: tidepool ${command.usage}`,
    "",
    ...(command.arguments.length
      ? [
        "Arguments:",
        ...command.arguments.map(({ name, description }) =>
          `  ${`<${name}>`.padEnd(argumentWidth)}${description}`
        ),
        "",
      ]
      : []),
    "Options:",
    ...flags.map(([flag, description]) => `  ${flag.padEnd(width)}${description}`),
    "",
    command.examples.length > 1 ? "Examples:" : "Example:",
    ...command.examples.map((example) => `  ${example}`),
    "",
  ].join("\n");
}
