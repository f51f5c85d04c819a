/**
 * The record/replay cache the environment asks for: `TIDEPOOL_CACHE_MODE`
 * (`record`, `replay`, `refresh` or `off`) and `TIDEPOOL_CACHE_DIR`
 * (default `.cache/tidepool`). A client given no `cache` option takes it,
 * so a notebook's code is the same when it records and when it replays.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import type { CacheMode, CacheOptions } from "./cache.ts";

const CACHE_MODES: readonly CacheMode[] = ["off", "record", "replay", "refresh"];

/** Where a recording goes when `TIDEPOOL_CACHE_DIR` does not say. */
export const DEFAULT_CACHE_DIR = ".cache/tidepool";

/**
 * One options object per mode and folder: the clients of a process share it,
 * and with it one recording session (a read after any of their writes is
 * keyed apart).
 */
const sessions = new Map<string, CacheOptions>();

/**
 * `TIDEPOOL_CACHE_MODE` as a mode; a misspelt one is an error, not a silent
 * live run.
 *
 * @param value The variable's value.
 * @returns The mode, or undefined when unset.
 * @throws {TidepoolError} For a value that is not a mode.
 */
export function checkedCacheMode(value: string | undefined): CacheMode | undefined {
  if (value === undefined || value === "") return undefined;
  if ((CACHE_MODES as readonly string[]).includes(value)) return value as CacheMode;
  throw new TidepoolError(`Unknown cache mode in TIDEPOOL_CACHE_MODE: ${value}`, {
    hint: "Set TIDEPOOL_CACHE_MODE to record, replay, refresh or off, or unset it",
  });
}

/**
 * The cache the environment asks for, or undefined when it asks for none
 * (the variable unset, `off`, or not readable under the script's permissions).
 *
 * @returns The cache options every client without its own shares.
 * @example Recording a script's requests
 * ```ts
 * // TIDEPOOL_CACHE_MODE=record deno run -A script.ts
 * console.log(cacheFromEnvironment()?.mode);
 * ```
 */
export function cacheFromEnvironment(): CacheOptions | undefined {
  const mode = checkedCacheMode(readVariable("TIDEPOOL_CACHE_MODE"));
  if (mode === undefined || mode === "off") return undefined;
  return cacheSession(mode, readVariable("TIDEPOOL_CACHE_DIR") || DEFAULT_CACHE_DIR);
}

/**
 * The cache options of one mode and folder, the same object each time: the
 * clients given it are one recording session.
 *
 * @param mode The cache mode.
 * @param dir The recording's folder.
 * @returns The shared options object.
 */
export function cacheSession(mode: CacheMode, dir: string): CacheOptions {
  const key = `${mode}\n${dir}`;
  let session = sessions.get(key);
  if (!session) sessions.set(key, session = { dir, mode });
  return session;
}

/** A variable's value when the script may read it; never a permission prompt. */
function readVariable(name: string): string | undefined {
  const env = globalThis.Deno?.env;
  if (!env) return undefined;
  const permission = Deno.permissions.querySync?.({ name: "env", variable: name });
  if (permission && permission.state !== "granted") return undefined;
  return env.get(name);
}
