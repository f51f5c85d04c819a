/**
 * The `tidepool` command: picks the subcommand, reads its flags with
 * `node:util` parseArgs, refuses keys on the command line, runs it, and
 * turns what it throws into one line on standard error and an exit code.
 *
 * @module
 */

import { terminalText } from "../errors/terminal_text.ts";
import { parseArgs } from "node:util";
import { closestNames } from "../options/did_you_mean.ts";
import { TIDEPOOL_VERSION } from "../version.ts";
import { CommandContext, type CommandInput, type CommandIo, type CommandSpec } from "./_command.ts";
import { errorLine } from "./_error_line.ts";
import { commandHelp, subcommandHelp } from "./_help.ts";
import { refuseSecrets } from "./_secrets.ts";
import { EXIT, exitCodeOf, UsageError } from "./exit_codes.ts";
import { ASSETS_COMMAND } from "./assets_command.ts";
import { COMPUTE_COMMAND } from "./compute_command.ts";
import { EXPRESSIONS_COMMAND } from "./expressions_command.ts";
import { HARVEST_COMMAND } from "./harvest_command.ts";
import { ORDERS_COMMAND } from "./orders_command.ts";
import { REPRODUCE_COMMAND, VERIFY_COMMAND } from "./bundle_commands.ts";
import { RESOURCESYNC_COMMAND } from "./resourcesync_command.ts";
import { SANDBOX_COMMAND } from "./sandbox_command.ts";
import { SPARQL_COMMAND } from "./sparql_command.ts";

/** Every subcommand, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  HARVEST_COMMAND,
  SPARQL_COMMAND,
  RESOURCESYNC_COMMAND,
  ORDERS_COMMAND,
  ASSETS_COMMAND,
  COMPUTE_COMMAND,
  EXPRESSIONS_COMMAND,
  VERIFY_COMMAND,
  REPRODUCE_COMMAND,
  SANDBOX_COMMAND,
];

const encoder = new TextEncoder();

/** Standard output and error and the environment of this process. */
export function processIo(): CommandIo {
  // A table printed on a terminal is shown inert; written to a pipe or a file, byte for byte.
  const toTerminal = Deno.stdout.isTerminal();
  const decoder = new TextDecoder();
  return {
    stdout: async (given) => {
      const bytes = toTerminal
        ? encoder.encode(terminalText(decoder.decode(given, { stream: true })))
        : given;
      for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
    },
    stderr: (text) => {
      const bytes = encoder.encode(text);
      for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
    },
    stderrIsTerminal: Deno.stderr.isTerminal(),
    env: (name) => Deno.env.get(name),
    onInterrupt: (stop) => {
      const listener = () => Deno.exit(stop());
      Deno.addSignalListener("SIGINT", listener);
      return () => Deno.removeSignalListener("SIGINT", listener);
    },
  };
}

/** What a command that keeps a state does on its next run, for the Ctrl-C line. */
const RESUMES: Readonly<Record<string, string>> = {
  harvest: "it continues where this run stopped",
  resourcesync: "it lists the same changes again",
};

/** The one line a run stopped by Ctrl-C leaves, after its progress line is cleared. */
function stoppedLine(command: string): string {
  const next = RESUMES[command] ?? "it runs again from the start; no half-written file was left";
  return `tidepool ${command}: Stopped (Ctrl-C). Run the same command to resume: ${next}\n`;
}

/** Refuses a flag the subcommand does not know, with the one meant, before parseArgs reads them. */
function refuseUnknownFlags(command: CommandSpec, args: readonly string[]): void {
  const options = command.options;
  const names = Object.keys(options);
  const shorts = new Map(names.flatMap((name) => {
    const short = options[name].short;
    return short ? [[short, name] as const] : [];
  }));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return;
    if (!arg.startsWith("-") || arg === "-") continue;
    const name = arg.startsWith("--")
      ? arg.slice(2).split("=")[0]
      : shorts.get(arg.slice(1, 2)) ?? arg.slice(0, 2);
    const option = options[name];
    if (!option) {
      const close = closestNames(name.replace(/^-+/, ""), names);
      // A short flag is its first letter: what is glued to it (-pSECRET) is a value, never repeated.
      const shown = arg.startsWith("--") ? arg.split("=")[0] : arg.slice(0, 2);
      throw new UsageError(
        `Unknown option ${shown} for tidepool ${command.name}${
          close.length ? `; did you mean --${close[0]}?` : ""
        }`,
        { hint: `tidepool ${command.name} --help lists its options` },
      );
    }
    // A flag's value is not a flag, even when it starts with "-" (--to -).
    if (option.type === "string" && !arg.includes("=") && arg.length > 1) i++;
  }
}

/** Reads a subcommand's command line with parseArgs. */
function readInput(command: CommandSpec, args: readonly string[]): CommandInput {
  const split = args.indexOf("--");
  const flags = split < 0 || !command.passesRest ? [...args] : args.slice(0, split);
  const rest = split < 0 || !command.passesRest ? [] : args.slice(split + 1);
  refuseUnknownFlags(command, flags);
  let parsed;
  try {
    parsed = parseArgs({
      args: flags,
      options: command.options,
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(
      `Cannot read the options of tidepool ${command.name}: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { hint: `tidepool ${command.name} --help lists its options` },
    );
  }
  const [least, most] = command.arity;
  const count = parsed.positionals.length;
  if (count < least || count > most) {
    const expected = least === most ? `${least}` : `${least} to ${most}`;
    throw new UsageError(
      `tidepool ${command.name} takes ${expected} argument${most === 1 ? "" : "s"}, not ${count}`,
      { hint: `Usage: tidepool ${command.usage}` },
    );
  }
  return { values: parsed.values, positionals: parsed.positionals, rest };
}

/**
 * Runs the `tidepool` command line: the subcommand's flags read with
 * parseArgs, keys refused on the command line, the table written, and an
 * error printed as one line on standard error.
 *
 * @param args The arguments after `tidepool`.
 * @param io Standard output and error and the environment; this process's by default.
 * @returns The exit code (see `EXIT`).
 *
 * @example Running a subcommand from a script, with its exit code
 * ```ts
 * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
 * import { EXIT } from "./exit_codes.ts";
 * await using sandbox = await startArchiveSandbox();
 * const to = `${await Deno.makeTempDir()}/letters.csv`;
 * const code = await runCli(["harvest", `${sandbox.url}/shinano/letters/api/oai`, "--to", to]);
 * if (code !== EXIT.ok) Deno.exit(code);
 * ```
 */
export async function runCli(
  args: readonly string[],
  io: CommandIo = processIo(),
): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.stderr(commandHelp(COMMANDS));
    return EXIT.usage;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  let context: CommandContext | undefined;
  try {
    if (name === "--help" || name === "-h" || name === "help") {
      await io.stdout(encoder.encode(commandHelp(COMMANDS)));
      return EXIT.ok;
    }
    if (name === "--version" || name === "-V") {
      await io.stdout(encoder.encode(`tidepool ${TIDEPOOL_VERSION}\n`));
      return EXIT.ok;
    }
    if (!command) {
      const close = closestNames(name, COMMANDS.map((candidate) => candidate.name));
      throw new UsageError(
        `Unknown command ${name}${close.length ? `; did you mean ${close[0]}?` : ""}`,
        { hint: "tidepool --help lists the commands" },
      );
    }
    const ownArgs = command.passesRest && rest.includes("--")
      ? rest.slice(0, rest.indexOf("--"))
      : rest;
    if (ownArgs.includes("--help") || ownArgs.includes("-h")) {
      await io.stdout(encoder.encode(subcommandHelp(command)));
      return EXIT.ok;
    }
    refuseSecrets(rest);
    const input = readInput(command, rest);
    context = new CommandContext(io, input.values);
    const running = context;
    // The sandbox stops on Ctrl-C by itself; every other command leaves one line and exits 130.
    const release = command.name === "sandbox" ? undefined : io.onInterrupt?.(() => {
      running.done();
      try {
        io.stderr(stoppedLine(command.name));
      } catch {
        // Standard error is closed: the exit code says it.
      }
      return EXIT.interrupted;
    });
    try {
      const code = await command.run(context, input);
      context.done();
      return code;
    } finally {
      release?.();
    }
  } catch (error) {
    context?.done();
    // A reader that stopped reading (| head) ends the command quietly, as SIGPIPE does other
    // tools: exit 141, never 0 (the state did not move on), and no line that would break the pipe's output.
    if (error instanceof Deno.errors.BrokenPipe) return EXIT.closedPipe;
    try {
      io.stderr(`${errorLine(command?.name ?? "", error)}\n`);
    } catch {
      // Standard error is closed too: the exit code is all that is left.
    }
    return exitCodeOf(error, context?.meter.sent ?? 0);
  }
}
