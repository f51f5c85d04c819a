/**
 * The exit codes of the `tidepool` command, one per kind of failure, so a
 * script or cron job can tell a mistyped flag from a service that is down
 * from a service that answered something broken.
 *
 * @module
 */

import {
  BusyError,
  CacheMissError,
  HttpError,
  NetworkError,
  ProtocolError,
  ResponseTooLargeError,
  TidepoolError,
  TimeoutError,
  UnknownValueError,
} from "../errors/errors.ts";
import { NotOwnFileError } from "../fs/own_file.ts";
import { StaleSubgraphError } from "../subgraph/stale_subgraph_error.ts";

/**
 * The exit codes, by what happened.
 *
 * @example Telling a service that is down from a bad flag in a script
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * await using sandbox = serveSubgraph();
 * const url = sandbox.endpoint;
 * import { runCli } from "./run_cli.ts";
 * const code = await runCli(["orders", url, "--to", `${await Deno.makeTempDir()}/orders.csv`]);
 * if (code === EXIT.network) console.error("the subgraph is unreachable; trying again in an hour");
 * console.log(code === EXIT.ok);
 * ```
 */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** `verify` or `reproduce` ran and found a difference; or another failure (a file not written). */
  failed: 1,
  /** The command line was refused: a flag, an argument, a value (before anything was sent, or a value not in the service's own list). */
  usage: 2,
  /** No answer: the connection was refused or cut, a name did not resolve, a timeout. */
  network: 3,
  /** The service answered with an HTTP error: 4xx or 5xx, a key refused, a bot challenge. */
  http: 4,
  /** The service answered something its protocol does not allow (an OAI-PMH or GraphQL error, a broken page). */
  protocol: 5,
  /** A `--replay` recording lacks an answer the command needed. */
  notRecorded: 6,
  /** A fault of tidepool itself; please report it. */
  internal: 70,
  /** Another run holds the state this one needs (sysexits' EX_TEMPFAIL): try again when it has ended. */
  busy: 75,
  /** Stopped by Ctrl-C (SIGINT), as a shell reports it: 128 + 2. The same command resumes the run. */
  interrupted: 130,
  /** Standard output was closed by its reader (`| head`), as a shell reports SIGPIPE: 128 + 13. */
  closedPipe: 141,
} as const;

/** A command line tidepool refuses: a flag, an argument or a value. */
export class UsageError extends TidepoolError {
  /** The error kind. */
  override name = "UsageError";
}

// Thrown below the command line too (a library mirror's lock): it lives with the other errors.
export { BusyError };

/**
 * The exit code for an error a command ended with.
 *
 * @param error What was thrown.
 * @param sentRequests How many requests the command had sent: a plain
 *   tidepool error before the first one is an input refused at the door.
 * @returns One of {@linkcode EXIT}.
 */
export function exitCodeOf(error: unknown, sentRequests: number): number {
  if (error instanceof UsageError || error instanceof UnknownValueError) return EXIT.usage;
  if (error instanceof BusyError) return EXIT.busy;
  if (error instanceof NetworkError || error instanceof TimeoutError) return EXIT.network;
  if (error instanceof HttpError) return EXIT.http;
  if (
    error instanceof ProtocolError || error instanceof StaleSubgraphError ||
    error instanceof ResponseTooLargeError
  ) return EXIT.protocol;
  if (error instanceof CacheMissError) return EXIT.notRecorded;
  if (error instanceof TidepoolError) return sentRequests === 0 ? EXIT.usage : EXIT.failed;
  if (
    error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied ||
    error instanceof NotOwnFileError
  ) return EXIT.failed;
  if (error instanceof Deno.errors.BrokenPipe) return EXIT.closedPipe;
  return EXIT.internal;
}
