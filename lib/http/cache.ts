/**
 * The record/replay cache that makes a notebook re-runnable a year later.
 *
 * Modes:
 * - `off`: no cache.
 * - `record`: answer from disk when the request was stored before, otherwise
 *   fetch and store. A first run records; later runs reuse what is there.
 * - `replay`: answer only from disk; a request that was never stored is a
 *   {@linkcode CacheMissError} naming it. No network is used.
 * - `refresh`: always fetch and overwrite what is stored.
 *
 * Keys come from the method, the URL, the `Accept` header and the body:
 * every part of the request, but never a credential in clear (see
 * `_cache_key.ts`). Bodies are stored without registered secrets in any
 * encoding (`_recorded_body.ts`), and a stopped run's temporary files are
 * cleared by the next run (`_recording_files.ts`). What is stored at all
 * is each operation's cache policy (`cache_policy.ts`): successful, complete,
 * error-free answers are served to live clients; anything else a recording
 * saw (a 404, an error inside a 200) is kept marked replay-only, so a replay
 * retraces the recorded run while a live client always asks again. Signed
 * requests are never stored, nor are writes unless their operation says the
 * answer may be (an archive resource write: an upload's presigned address is
 * not). A stored write is always sent while recording and answered from the
 * recording in replay; after it, the same service's reads are keyed apart,
 * so a read after the session's own write shows what the write did.
 *
 * Keys name the host and port. A sandbox takes a new port on every start, so
 * a recording of it replays at the addresses it was made against, which
 * `openServices` keeps in `services.json` in the cache folder.
 *
 * Besides answers, a recording keeps the configuration a client discovered
 * (the largest page size a service accepts), so a replay, and a later
 * recording, needs no probe.
 *
 * @module
 */

import { currentOperation } from "../table/call_trace.ts";
import { CacheMissError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";
import { cacheKey, type CacheRequest, keyUrl } from "./_cache_key.ts";
import { recordableBody } from "./_recorded_body.ts";
import { readRecordingFile, sweepLeftovers, writeRecordingFile } from "./_recording_files.ts";

export { cacheKey, type CacheRequest } from "./_cache_key.ts";

/** The cache modes; see the module documentation. */
export type CacheMode = "off" | "record" | "replay" | "refresh";

/** Cache settings of a client. */
export interface CacheOptions {
  /** The folder that holds the cache files. */
  dir: string;
  /** What the cache does; see {@linkcode CacheMode}. */
  mode: CacheMode;
}

/** One stored answer. */
export interface CachedResponse {
  /** HTTP status of the stored answer. */
  status: number;
  /** The headers by name; only those that change how a body is read are stored. */
  headers: Record<string, string>;
  /** The body bytes as received. */
  body: Uint8Array;
  /** When the answer was received (ISO 8601); for a stored answer, when it was recorded. */
  recordedAt?: string;
  /** The cache key of the request. */
  key?: string;
  /** Not an answer worth serving live (see `cache_policy.ts`): kept for replay only. */
  replayOnly?: boolean;
}

interface CacheFile {
  format: "tidepool-cache/1";
  method: string;
  url: string;
  recordedAt: string;
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
  /** A failure or partial answer, kept only so replay retraces the recorded run. */
  replayOnly?: boolean;
}

/** Headers worth keeping: those that change how a body is read. */
const KEPT_HEADERS = [
  "content-type",
  "retry-after",
  "location",
  "cf-mitigated",
];

/** A cache on disk for one client. */
export class ResponseCache {
  /** The folder that holds the cache files. */
  readonly dir: string;
  /** What the cache does; see {@linkcode CacheMode}. */
  readonly mode: CacheMode;
  /**
   * The recording session this cache belongs to: the options object its
   * client was given. Clients given the same object count their writes
   * together (see `_cache_read_through.ts`).
   */
  readonly session: object;

  /**
   * Opens the cache in a folder; files are read and written only on request.
   *
   * @param options The folder and the mode.
   */
  constructor(options: CacheOptions) {
    this.dir = options.dir;
    this.mode = options.mode;
    this.session = options;
  }

  /** Whether requests consult this cache at all. */
  get enabled(): boolean {
    return this.mode !== "off";
  }

  /**
   * Looks up a stored answer. In `replay` mode a miss throws; in `record`
   * mode a miss returns undefined; in `refresh` mode nothing is read.
   */
  async read(request: CacheRequest): Promise<CachedResponse | undefined> {
    if (this.mode === "off" || this.mode === "refresh") return undefined;
    const { method, url } = request;
    const key = await cacheKey(request);
    const path = this.#path(url, key);
    const file = await readRecordingFile(path) as CacheFile | undefined;
    if (!file) {
      if (this.mode === "replay") {
        throw new CacheMissError(method, url, {
          dir: this.dir,
          replayable: true,
          operation: currentOperation(),
        });
      }
      return undefined;
    }
    // A failure (a 404, an error inside a 200) never outlives its cause in
    // live use: only replay, which retraces the recorded run, is given it.
    if (this.mode !== "replay" && (file.replayOnly || file.status < 200 || file.status >= 300)) {
      return undefined;
    }
    return {
      status: file.status,
      headers: file.headers,
      body: decodeBase64(file.bodyBase64),
      recordedAt: file.recordedAt,
      key,
    };
  }

  /** Stores an answer, atomically (a temporary file renamed into place). */
  async write(request: CacheRequest, response: CachedResponse): Promise<void> {
    if (this.mode !== "record" && this.mode !== "refresh") return;
    const { method, url } = request;
    const path = this.#path(url, response.key ?? await cacheKey(request));
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers[name];
      // A location may name the key it was asked with: stored redacted, as the URL is.
      if (value !== undefined) headers[name] = redact(value);
    }
    const file: CacheFile = {
      format: "tidepool-cache/1",
      method,
      url: redact(await keyUrl(url)),
      recordedAt: response.recordedAt ?? new Date().toISOString(),
      status: response.status,
      headers,
      bodyBase64: encodeBase64(recordableBody(response.body)),
      ...(response.replayOnly ? { replayOnly: true } : {}),
    };
    await writeStored(this.dir, path, JSON.stringify(file));
  }

  /**
   * Reads a setting a client discovered and recorded for a service (such as
   * the largest page size it accepts). Nothing is read in `refresh` mode,
   * which discovers again.
   *
   * @param url Any URL of the service; its host names the recording.
   * @param name The setting.
   * @returns The recorded value, or undefined.
   */
  async recall(url: string, name: string): Promise<unknown> {
    if (this.mode === "off" || this.mode === "refresh") return undefined;
    return (await readRecordingFile(this.#settingPath(url, name)))?.value;
  }

  /**
   * Records a discovered setting, so that replays and later recordings need
   * no probe. Nothing is written in `replay` mode.
   *
   * @param url Any URL of the service; its host names the recording.
   * @param setting The setting's `name` and its `value`, a JSON value.
   */
  async remember(url: string, { name, value }: { name: string; value: unknown }): Promise<void> {
    if (this.mode !== "record" && this.mode !== "refresh") return;
    const file = {
      format: "tidepool-setting/1",
      name,
      value,
      recordedAt: new Date().toISOString(),
    };
    await writeStored(this.dir, this.#settingPath(url, name), JSON.stringify(file));
  }

  #path(url: string, key: string) {
    return `${this.#hostDir(url)}/${key.slice(0, 2)}/${key}.json`;
  }

  #settingPath(url: string, name: string) {
    return `${this.#hostDir(url)}/settings/${name.replace(/[^A-Za-z0-9._-]/g, "_")}.json`;
  }

  #hostDir(url: string) {
    // A key in the host name (`<key>.gateway.example`) names no folder: redacted, as in the URL.
    return `${this.dir}/${redact(new URL(url).host).replace(/[^A-Za-z0-9.-]/g, "_")}`;
  }
}

/** Writes a recording file, first clearing what stopped runs left in the recording. */
async function writeStored(dir: string, path: string, text: string): Promise<void> {
  await sweepLeftovers(dir);
  await writeRecordingFile(path, text);
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
