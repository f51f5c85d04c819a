/**
 * What every subcommand is made of: its flags (as `node:util` parseArgs
 * reads them, with their help), its arguments, its examples and its run;
 * the flags most share; and the context a run gets (the clients' options,
 * standard output, the summary line).
 *
 * @module
 */

import { inlineText, terminalText } from "../errors/terminal_text.ts";
import type { ClientOptions } from "../http/options.ts";
import { UsageError } from "./exit_codes.ts";
import { type ProgressLine, progressLine, RequestMeter } from "./_progress_line.ts";
import { type OutputTarget, outputTarget } from "./_output.ts";
import { keyFromEnvironment } from "./_secrets.ts";
import { refuseForeignOutput } from "./_owned_output.ts";
import { checkFilePath } from "./_state_files.ts";
import { inCliWords } from "./_cli_words.ts";

/** One flag: how parseArgs reads it, and its line of help. */
export interface OptionSpec {
  /** `string` takes a value, `boolean` does not. */
  type: "string" | "boolean";
  /** A one-letter alias. */
  short?: string;
  /** Whether it may be given more than once (then its value is a list). */
  multiple?: boolean;
  /** The value's name in help (`DIR`, `N`). */
  value?: string;
  /** What it does, for `--help`. */
  description: string;
}

/** A positional argument, for `--help`. */
export interface ArgumentSpec {
  /** Its name in the usage line (`oai-url`). */
  name: string;
  /** What it is. */
  description: string;
}

/** The flag values and arguments of a run, as parseArgs read them. */
export interface CommandInput {
  /** Flag values by name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** The arguments before `--`. */
  positionals: string[];
  /** The arguments after `--`, passed on as they are. */
  rest: string[];
}

/** A subcommand. */
export interface CommandSpec {
  /** Its name (`harvest`). */
  name: string;
  /** One line: what it does. */
  summary: string;
  /** The usage line after `tidepool ` (`harvest <oai-url> [options]`). */
  usage: string;
  /** The positional arguments, in order. */
  arguments: readonly ArgumentSpec[];
  /** How many positional arguments it takes at least and at most. */
  arity: readonly [number, number];
  /** Its flags, `--help` included by the runner. */
  options: Readonly<Record<string, OptionSpec>>;
  /** Whether arguments after `--` are taken (passed on); otherwise `--` ends the flags only. */
  passesRest?: boolean;
  /** Shell lines that show it, for `--help`. */
  examples: readonly string[];
  /** Runs it; the exit code. */
  run(context: CommandContext, input: CommandInput): Promise<number>;
}

/** Where `--to` and `--format` send the table, and `--quiet`. */
export const OUTPUT_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  to: {
    type: "string",
    short: "o",
    value: "PATH",
    description:
      "where the table goes: a .csv, .tsv, .ndjson, .parquet, .json or .arrow file, or - (the default) for standard output",
  },
  format: {
    type: "string",
    value: "FORMAT",
    description: "csv, tsv, ndjson, parquet, json or arrow, when the file name does not say",
  },
  "list-separator": {
    type: "string",
    value: "SEP",
    description:
      'list cells in CSV and TSV as their items joined by SEP (such as "; "), not as JSON text',
  },
  quiet: { type: "boolean", short: "q", description: "no progress line and no summary" },
};

/** The cache and the request limit every reading command takes. */
export const CLIENT_FLAGS: Readonly<Record<string, OptionSpec>> = {
  record: {
    type: "string",
    value: "DIR",
    description: "keep every answer in DIR (answers already there are not asked again)",
  },
  replay: {
    type: "string",
    value: "DIR",
    description: "answer only from the recording in DIR: nothing is sent",
  },
  concurrency: { type: "string", value: "N", description: "at most N requests in flight at once" },
};

/** The key of a service, from an environment variable. */
export const KEY_FLAG: Readonly<Record<string, OptionSpec>> = {
  "api-key-env": {
    type: "string",
    value: "NAME",
    description: "read the service's key from the environment variable NAME (never from a flag)",
  },
};

/**
 * Where a run writes and what it reads of its environment: this process's
 * streams for the command, others for a program that runs it inside itself.
 *
 * @example Capturing what a run prints
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * await using sandbox = serveSubgraph();
 * const url = sandbox.endpoint;
 * import { runCli } from "./run_cli.ts";
 * let out = "";
 * const io: CommandIo = {
 *   stdout: async (bytes) => void (out += new TextDecoder().decode(bytes)),
 *   stderr: () => {},
 *   stderrIsTerminal: false,
 *   env: (name) => Deno.env.get(name),
 * };
 * await runCli(["orders", url, "--to", "-"], io);
 * console.log(out.split("\n")[0]);
 * ```
 */
export interface CommandIo {
  /** Writes bytes to standard output. */
  stdout: (bytes: Uint8Array) => Promise<void>;
  /** Writes text to standard error at once. */
  stderr: (text: string) => void;
  /** Whether standard error is a terminal (then the progress line is drawn). */
  stderrIsTerminal: boolean;
  /** Reads an environment variable. */
  env: (name: string) => string | undefined;
  /**
   * Calls `stop` on Ctrl-C (SIGINT) while a command runs and ends the
   * process with the code it returns; returns the function that stops
   * listening. Left out, a run is not told.
   */
  onInterrupt?: (stop: () => number) => () => void;
}

/** The context of one run of a subcommand. */
export class CommandContext {
  /** The requests the clients sent. */
  readonly meter: RequestMeter = new RequestMeter();
  /** The input or output. */
  readonly io: CommandIo;
  readonly #values: CommandInput["values"];
  readonly #progress?: ProgressLine;

  /**
   * A run's context.
   *
   * @param io Standard output and error and the environment.
   * @param values The flag values.
   */
  constructor(io: CommandIo, values: CommandInput["values"]) {
    this.io = io;
    this.#values = values;
    if (io.stderrIsTerminal && !this.quiet) this.#progress = progressLine(io.stderr, this.meter);
  }

  /** Whether `--quiet` was given. */
  get quiet(): boolean {
    return this.#values.quiet === true;
  }

  /** Whether a boolean flag was given. */
  flag(name: string): boolean {
    return this.#values[name] === true;
  }

  /** A string flag's value. */
  string(name: string): string | undefined {
    const value = this.#values[name];
    return typeof value === "string" ? value : undefined;
  }

  /** A flag given more than once, as a list (empty when not given). */
  list(name: string): string[] {
    const value = this.#values[name];
    if (Array.isArray(value)) return value.filter((item) => typeof item === "string");
    return typeof value === "string" ? [value] : [];
  }

  /**
   * A flag's value as a whole number from `min` to `max`, or undefined when
   * not given. Digits only: a number past `max` (at most 2^53 - 1, past which
   * a number loses digits) is refused, never rounded.
   */
  integer(name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const digits = text.trim();
    const expected = `expected a whole number from ${count(min)} to ${count(max)}`;
    if (!/^\d+$/.test(digits)) throw new UsageError(`Invalid --${name} ${text}: ${expected}`);
    // Compared as a bigint: a Number past 2^53 would already be rounded.
    const value = BigInt(digits);
    if (value < BigInt(min) || value > BigInt(max)) {
      throw new UsageError(`Invalid --${name} ${text}: ${expected}`);
    }
    return Number(value);
  }

  /** The key named by `--api-key-env`, if given. */
  apiKey(): string | undefined {
    const name = this.string("api-key-env");
    return name === undefined ? undefined : keyFromEnvironment("--api-key-env", name, this.io.env);
  }

  /** The options every client of the run takes: the counting fetch, progress, cache, concurrency. */
  clientOptions(): ClientOptions {
    const [record, replay] = [this.string("record"), this.string("replay")];
    if (record !== undefined && replay !== undefined) {
      throw new UsageError("Give --record or --replay, not both");
    }
    const options: ClientOptions = {
      fetch: this.meter.fetch,
      progress: this.#progress?.sink ?? false,
      // A warning quotes a server: it keeps to its one line, in the command line's words.
      warn: (message) => this.note(`warning: ${inlineText(inCliWords(message))}`),
    };
    if (record !== undefined) options.cache = { dir: record, mode: "record" };
    if (replay !== undefined) options.cache = { dir: replay, mode: "replay" };
    const concurrency = this.integer("concurrency", 1);
    if (concurrency !== undefined) options.concurrency = concurrency;
    return options;
  }

  /**
   * Where the table goes; a file there that tidepool did not write is
   * refused now, before any request (unless the command decides that itself).
   */
  async output(folders = false, refuseForeign = true): Promise<OutputTarget> {
    const target = await outputTarget(this.string("to"), this.string("format"), folders);
    const separator = this.string("list-separator");
    if (separator !== undefined) {
      if (separator === "") {
        throw new UsageError("Invalid --list-separator: it is empty", {
          hint: 'Give the text that goes between items, such as "; " or "|"',
        });
      }
      const format = target.kind === "folder" ? "parquet" : target.format;
      if (format !== "csv" && format !== "tsv") {
        throw new UsageError(`--list-separator is for CSV and TSV, not ${format}`, {
          hint: `Leave it out: ${format} keeps each list as a list`,
        });
      }
      target.cells = { lists: "join", separator };
    }
    if (target.kind === "file") {
      await checkFilePath("--to", target.path);
      if (refuseForeign) await refuseForeignOutput(target.path);
    }
    return target;
  }

  /** Writes a line to standard error whatever `--quiet` says (warnings). */
  note(line: string): void {
    this.#progress?.clear();
    this.io.stderr(`${terminalText(line)}\n`);
  }

  /** Writes the summary line to standard error, unless `--quiet`. */
  say(line: string): void {
    if (this.quiet) this.#progress?.clear();
    else this.note(line);
  }

  /** Clears the progress line (before an error is printed). */
  done(): void {
    this.#progress?.clear();
  }
}

/** A count for people: `12,000`. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A count of things for people: `1 row`, `12,000 rows`. */
export function counted(n: number, thing: string): string {
  return `${count(n)} ${thing}${n === 1 ? "" : "s"}`;
}
