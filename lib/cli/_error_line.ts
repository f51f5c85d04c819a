/**
 * An error as the one line the command prints: what happened, what the
 * server said and what to do, never a stack trace, every secret redacted.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";
import { inCliWords } from "./_cli_words.ts";
import { NotOwnFileError } from "../fs/own_file.ts";
import { inlineText } from "../errors/terminal_text.ts";

/** Text on one line: line breaks and runs of spaces become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The line printed for an error that ended a command.
 *
 * @param command The subcommand, as `tidepool harvest` names it.
 * @param error What was thrown.
 * @returns One line without its newline.
 */
export function errorLine(command: string, error: unknown): string {
  // What a server or a re-run said is in it: no escape sequence reaches the terminal.
  return inlineText(lineOf(command, error));
}

function lineOf(command: string, error: unknown): string {
  const prefix = command ? `tidepool ${command}` : "tidepool";
  if (error instanceof TidepoolError) {
    // The first line of the message: a SPARQL error's excerpt lines would break the one line.
    const what = error.shortMessage.split("\n")[0];
    const said = error.details ? ` (${error.detailsLabel}: ${error.details})` : "";
    const line = `${prefix}: ${what}${said}`;
    const hint = error.hint ? `${/[.?!]$/.test(line) ? "" : "."} What to do: ${error.hint}` : "";
    return redact(oneLine(inCliWords(`${line}${hint}`)));
  }
  if (error instanceof NotOwnFileError) return redact(oneLine(`${prefix}: ${error.message}`));
  if (error instanceof Deno.errors.BrokenPipe) {
    return `${prefix}: Standard output was closed before the whole table was written (a reader such as head stopped reading). What to do: Let the reader read to the end, or give --to a file; a harvest or mirror state did not move on, so the next run gives these rows again`;
  }
  if (error instanceof Deno.errors.NotCapable) {
    return redact(oneLine(
      `${prefix}: Deno refused an operation: ${
        error instanceof Error ? error.message : ""
      }. What to do: Run tidepool with the permissions it needs (deno install -g -A, or deno task tidepool)`,
    ));
  }
  const described = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redact(oneLine(
    `${prefix}: Unexpected error: ${described}. What to do: This is a fault of tidepool; please report it with the command you ran (keys left out)`,
  ));
}
