/**
 * The arguments of the `reproduce` command, parsed with `node:util`'s
 * `parseArgs`: the bundle, the notebook or script, and the recording given
 * either as a third argument or as `--recording`; a usage error names the
 * argument that was wrong.
 *
 * @module
 */

import { parseArgs } from "node:util";

/** The usage line of the command. */
export const REPRODUCE_USAGE =
  "Usage: reproduce <bundle folder> <notebook.ipynb or script.ts> [<recording folder>] [--recording <folder>] [--allow-not-recorded] [--max-copy-mb <MB>] [--max-copy-files <N>] [--max-table-cells <N>] [-- <script arguments>]";

/** The command's arguments, parsed. */
export interface ReproduceArgs {
  bundle: string;
  source: string;
  recording?: string;
  allowNotRecorded: boolean;
  maxCopyBytes?: number;
  maxCopyFiles?: number;
  maxTableCells?: number;
  scriptArgs: string[];
}

/**
 * Parses the command's arguments.
 *
 * @param args The arguments after the command.
 * @returns The parsed arguments, or the usage error naming what was wrong.
 */
export function parseReproduceArgs(args: readonly string[]): ReproduceArgs | { error: string } {
  const split = args.indexOf("--");
  const own = split < 0 ? [...args] : args.slice(0, split);
  const scriptArgs = split < 0 ? [] : args.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      strict: true,
      options: {
        recording: { type: "string" },
        "allow-not-recorded": { type: "boolean" },
        "max-copy-mb": { type: "string" },
        "max-copy-files": { type: "string" },
        "max-table-cells": { type: "string" },
      },
    });
  } catch (error) {
    return { error: (error as Error).message.replace(/\. To specify a positional.*$/s, "") };
  }
  const { values, positionals } = parsed;
  const [bundle, source, third, ...extra] = positionals;
  if (bundle === undefined) return { error: "Missing the bundle folder (the first argument)" };
  if (source === undefined) {
    return { error: "Missing the notebook or script that wrote the bundle (the second argument)" };
  }
  if (extra.length > 0) return { error: `Unexpected argument: ${extra[0]}` };
  if (third !== undefined && values.recording !== undefined) {
    return {
      error: `The recording is given twice: ${third} and --recording ${values.recording}`,
    };
  }
  let maxCopyBytes: number | undefined;
  if (values["max-copy-mb"] !== undefined) {
    const megabytes = Number(values["max-copy-mb"]);
    if (!Number.isFinite(megabytes) || megabytes <= 0) {
      return { error: `Invalid --max-copy-mb ${values["max-copy-mb"]}: give a number of MB` };
    }
    maxCopyBytes = megabytes * 1024 * 1024;
  }
  const maxCopyFiles = positiveWhole(values["max-copy-files"]);
  if (maxCopyFiles === null) {
    return {
      error: `Invalid --max-copy-files ${values["max-copy-files"]}: give a whole number of files`,
    };
  }
  const maxTableCells = positiveWhole(values["max-table-cells"]);
  if (maxTableCells === null) {
    return {
      error: `Invalid --max-table-cells ${values["max-table-cells"]}: give a whole number of cells`,
    };
  }
  return {
    bundle,
    source,
    recording: third ?? values.recording,
    allowNotRecorded: values["allow-not-recorded"] === true,
    maxCopyBytes,
    maxCopyFiles,
    maxTableCells,
    scriptArgs,
  };
}

/**
 * A flag's whole number above zero: undefined when the flag is not given,
 * null when its value is no such number.
 *
 * @param value The flag's text.
 * @returns The number, undefined or null.
 */
export function positiveWhole(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  const number = Number(value);
  return /^\d+$/.test(value.trim()) && Number.isSafeInteger(number) && number > 0 ? number : null;
}
