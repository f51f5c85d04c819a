/**
 * A harvest of many OAI-PMH sources into one Parquet dataset partitioned by
 * source: a global cap on requests in flight, a per-host cap (shared by the
 * sources of a host, and across processes with `lockFolder`), one state per
 * source so that each night starts from each source's own last datestamp,
 * and a failed source left to the next night without holding back the
 * others.
 *
 * @module
 */

import { HttpClient } from "../../http/client.ts";
import type { ClientOptions } from "../../http/options.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { checkOptions } from "../../options/check_options.ts";
import { redact } from "../../errors/redact.ts";
import { readOwnFile, writeOwnFile } from "../../fs/own_file.ts";
import { tryHoldLock } from "../../fs/file_lock.ts";
import { ARCHIVE_PACING } from "../_pacing.ts";
import {
  harvestDataset,
  type HarvestDatasetOptions,
  type HarvestSource,
} from "./harvest_dataset.ts";
import { OaiPmh } from "./oai_pmh.ts";
import { gatedFetch, Slots } from "./_request_gate.ts";

/** One endpoint of a harvest of many, with its own options. */
export interface OaiSource {
  /** The endpoint's full URL. */
  url: string;
  /** Its metadata format; default the harvest's (`oai_dc`). */
  metadataPrefix?: string;
  /** Only this set. */
  set?: string;
  /** Only records changed at or after this time, on the first harvest (later ones are incremental). */
  from?: string;
}

/** How far a harvest of many sources has gone, as it goes. */
export interface SourcesProgress {
  /** Sources in this run. */
  total: number;
  /** Harvested whole. */
  done: number;
  /** Failed in this run (retried on the next). */
  failing: number;
  /** Being harvested now. */
  running: number;
  /** Not started yet. */
  waiting: number;
  /** Records received so far. */
  records: number;
}

/** Options of {@linkcode harvestSources}. */
export interface HarvestSourcesOptions {
  /** The endpoints. */
  sources: readonly OaiSource[];
  /** The dataset folder; each source writes below `source=<name>/`. */
  dir: string;
  /** Most requests in flight in all; default 8. */
  concurrency?: number;
  /** Most requests in flight to one host; default 1, as polite harvesters do. */
  perHost?: number;
  /**
   * A folder of per-host lock files (such as `<state folder>/locks/hosts`)
   * shared by every process of this machine, so the per-host cap holds
   * across them; default none (the cap holds in this process).
   */
  lockFolder?: string;
  /** Only the share `index` (0-based) of `count`, chosen by a hash of each source's URL and set. */
  shard?: { index: number; count: number };
  /** The harvest options every source takes (its own `metadataPrefix`, `set`, `from` win). */
  harvest?: Omit<HarvestDatasetOptions, "state" | "signal">;
  /** The client options every host's client takes (retries, timeout, headers, fetch). */
  client?: Omit<ClientOptions, "concurrency" | "signal">;
  /** Called whenever a source starts or ends. */
  onProgress?: (progress: SourcesProgress) => void;
  /** Cancels the harvest. */
  signal?: AbortSignal;
}

/** One source's line of the summary. */
export interface SourceSummary {
  /** The partition name (`source=<name>`). */
  name: string;
  /** The endpoint, its credentials hidden. */
  url: string;
  /** The set, if any. */
  set: string | null;
  /** `done`, or `failed` (retried on the next run). */
  status: "done" | "failed";
  /** Records received in this run. */
  records: number;
  /** Rows the source's partition holds, earlier runs included. */
  rows: number;
  /** Runs in a row that failed, this one included; 0 after a success. */
  errors: number;
  /** What went wrong, when it failed. */
  error: string | null;
  /** The latest datestamp received from this source, in any run, as written. */
  lastDatestamp: string | null;
}

/** What a harvest of many sources did. */
export interface SourcesSummary {
  /** The dataset folder. */
  dir: string;
  /** One line per source, in the order given. */
  sources: SourceSummary[];
}

/** The ledger of one source, kept in its partition (readers skip `_` files). */
export const SOURCE_LEDGER_FILE = "_source.json";

/** A 32-bit FNV-1a hash: stable across runs, machines and versions. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The shard (0 to `count - 1`) a source belongs to: a hash of its URL and
 * set, so that N machines given the same list share it without overlap.
 *
 * @param source The endpoint.
 * @param count How many shards.
 * @returns The source's shard.
 *
 * @example
 * ```ts
 * const shard = sourceShard({ url: "https://archive.example/oai" }, 4);
 * console.log(shard >= 0 && shard < 4); // true
 * ```
 */
export function sourceShard(source: OaiSource, count: number): number {
  return fnv1a(`${source.url}\n${source.set ?? ""}`) % count;
}

/**
 * The partition name of a source: its host and path in letters, digits,
 * dots and dashes, then a hash of its URL, set and format, so two sources
 * never share a folder.
 *
 * @param source The endpoint.
 * @returns A name safe as a folder on every system, at most 100 characters.
 *
 * @example
 * ```ts
 * console.log(sourceName({ url: "https://archive.example/oai", set: "maps" }));
 * ```
 */
export function sourceName(source: OaiSource): string {
  let readable = source.url;
  try {
    const url = new URL(source.url);
    readable = `${url.host}${url.pathname}`;
  } catch {
    // an invalid URL fails when harvested; its name stays readable
  }
  const slug = `${readable}${source.set ? `-${source.set}` : ""}`
    .replace(/[^A-Za-z0-9.]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 90);
  const hash = fnv1a(`${source.url}\n${source.set ?? ""}\n${source.metadataPrefix ?? ""}`);
  return `${slug}-${hash.toString(16).padStart(8, "0")}`;
}

interface Ledger {
  lastDatestamp: string | null;
  errors: number;
  error: string | null;
  lastRun: string;
}

async function readLedger(path: string): Promise<Ledger | undefined> {
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Ledger;
  } catch {
    return undefined; // a torn ledger only loses the figures it kept
  }
}

const later = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a;

/**
 * Harvests many OAI-PMH sources into one Parquet dataset partitioned by
 * source (`source=<name>/`, then the harvest's own partitioning). Each
 * source keeps its harvest state and a ledger in its partition: a rerun
 * resumes an interrupted source and asks a finished one only for the
 * records changed since its last datestamp. A source that fails is
 * reported and left for the next run; the others go on. One client per
 * host paces its sources together (`perHost` requests at once, pauses as
 * the host's `Retry-After` asks), and `concurrency` caps the requests in
 * flight in all.
 *
 * @param options The sources, the folder, the caps and the harvest options.
 * @returns One line per source: records, rows, errors, last datestamp.
 *
 * @example Two repositories, one request at a time per host
 * ```ts ignore (harvests several public OAI-PMH providers over the network)
 * const summary = await harvestSources({
 *   sources: [{ url: "https://a.example/oai" }, { url: "https://b.example/oai", set: "maps" }],
 *   dir: "out/oai",
 *   concurrency: 8,
 * });
 * console.table(summary.sources);
 * ```
 */
export async function harvestSources(options: HarvestSourcesOptions): Promise<SourcesSummary> {
  // The nested harvest and client options are checked by the calls they are handed to.
  checkOptions("harvestSources", options, {
    sources: (value, name) => {
      if (!Array.isArray(value)) {
        throw new TidepoolError(`Invalid option ${name} of harvestSources: not a list`, {
          hint: 'Give sources as a list: [{ url: "https://repository.example/oai" }]',
        });
      }
      return value;
    },
    dir: "string",
    concurrency: "integer",
    perHost: "integer",
    lockFolder: "string",
    shard: "object",
    harvest: "object",
    client: "object",
    onProgress: "function",
    signal: "signal",
  }, ["sources", "dir"]);
  const perHost = Math.max(1, Math.floor(options.perHost ?? 1));
  const slots = new Slots(options.concurrency ?? 8);
  const shard = options.shard;
  if (shard && !(shard.count >= 1 && shard.index >= 0 && shard.index < shard.count)) {
    throw new TidepoolError(`Invalid shard ${shard.index + 1}/${shard.count}`, {
      hint: "Give a shard K/N with 1 <= K <= N, such as 2/4",
    });
  }
  const names = new Map<string, number>();
  // The harvest's set and format are each source's unless it names its own: they name its partition.
  const sources = options.sources.map((s): OaiSource => ({
    ...s,
    set: s.set ?? options.harvest?.set,
    metadataPrefix: s.metadataPrefix ?? options.harvest?.metadataPrefix ?? "oai_dc",
  })).map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)))
    .filter((s, i) => {
      const twin = names.get(sourceName(s as OaiSource));
      if (twin === undefined) {
        names.set(sourceName(s as OaiSource), i);
        return !shard || sourceShard(s as OaiSource, shard.count) === shard.index;
      }
      // Two entries of one source would share its partition and state.
      throw new TidepoolError(`Duplicate source ${i + 1}: the same as source ${twin + 1}`, {
        details: redact(s.url as string),
        hint: "List each endpoint (and set and format) once",
      });
    }) as OaiSource[];
  const fetch = gatedFetch({
    fetch: options.client?.fetch,
    slots,
    lockFolder: options.lockFolder,
    perHost,
  });
  const clients = new Map<string, HttpClient>();
  const clientOf = (url: URL) => {
    let client = clients.get(url.origin);
    if (!client) {
      client = new HttpClient(url.origin, {
        progress: false,
        ...options.client,
        fetch,
        concurrency: perHost,
        signal: options.signal,
        defaults: ARCHIVE_PACING,
      });
      clients.set(url.origin, client);
    }
    return client;
  };
  const progress: SourcesProgress = {
    total: sources.length,
    done: 0,
    failing: 0,
    running: 0,
    waiting: sources.length,
    records: 0,
  };
  const report = () => options.onProgress?.({ ...progress });

  const harvestOne = async (source: OaiSource): Promise<SourceSummary> => {
    const name = sourceName(source);
    const dir = `${options.dir}/source=${name}`;
    await Deno.mkdir(dir, { recursive: true });
    // Two runs over one list (shards that overlap, a cron job still running) never share a source.
    using held = await tryHoldLock(await Deno.open(dir, { read: true }));
    if (!held) {
      return {
        name,
        url: redact(source.url),
        set: source.set ?? null,
        status: "failed",
        records: 0,
        rows: 0,
        errors: 0,
        error: "another run is harvesting this source",
        lastDatestamp: null,
      };
    }
    const ledgerPath = `${dir}/${SOURCE_LEDGER_FILE}`;
    const before = await readLedger(ledgerPath);
    let records = 0;
    let last: string | null = before?.lastDatestamp ?? null;
    const line = { name, url: redact(source.url), set: source.set ?? null };
    try {
      let url: URL;
      try {
        url = new URL(source.url);
      } catch {
        throw new TidepoolError(`Invalid OAI-PMH endpoint URL: ${redact(source.url)}`, {
          hint: "Give each source's absolute URL, such as https://archive.example/oai",
        });
      }
      const oai = new OaiPmh(clientOf(url), url.pathname + url.search);
      const counted: HarvestSource = {
        async *harvestRecords(harvest) {
          for await (const page of oai.harvestRecords(harvest)) {
            records += page.records.length;
            progress.records += page.records.length;
            for (const record of page.records) {
              if (record.datestampText) last = later(last, record.datestampText);
            }
            yield page;
          }
        },
      };
      const written = await harvestDataset(counted, dir, {
        ...options.harvest,
        ...(source.metadataPrefix ? { metadataPrefix: source.metadataPrefix } : {}),
        ...(source.set ? { set: source.set } : {}),
        // Only the first harvest starts at the source's own `from`; the state goes on from there.
        ...(source.from && !before ? { from: source.from } : {}),
        signal: options.signal,
      });
      const ledger: Ledger = {
        lastDatestamp: last,
        errors: 0,
        error: null,
        lastRun: new Date().toISOString(),
      };
      await writeOwnFile(ledgerPath, JSON.stringify(ledger, null, 2));
      return { ...line, status: "done", records, rows: written.rows, ...ledger };
    } catch (error) {
      options.signal?.throwIfAborted();
      const message = redact(error instanceof Error ? error.message : String(error));
      const ledger: Ledger = {
        lastDatestamp: last,
        errors: (before?.errors ?? 0) + 1,
        error: message,
        lastRun: new Date().toISOString(),
      };
      await writeOwnFile(ledgerPath, JSON.stringify(ledger, null, 2));
      return { ...line, status: "failed", records, rows: 0, ...ledger };
    }
  };

  // Sources start while the global cap has room, and only on a host that
  // has room too: a source waiting on a busy host would hold a place.
  const results: SourceSummary[] = new Array(sources.length);
  const hostOf = (s: OaiSource) => URL.canParse(s.url) ? new URL(s.url).origin : s.url;
  const busy = new Map<string, number>();
  const pending = sources.map((_, i) => i);
  const room = Math.max(1, Math.floor(options.concurrency ?? 8));
  await new Promise<void>((resolve, reject) => {
    const launch = () => {
      if (pending.length === 0 && progress.running === 0) return resolve();
      for (let k = 0; k < pending.length && progress.running < room;) {
        const index = pending[k];
        const host = hostOf(sources[index]);
        if ((busy.get(host) ?? 0) >= perHost) {
          k++;
          continue;
        }
        pending.splice(k, 1);
        busy.set(host, (busy.get(host) ?? 0) + 1);
        progress.running++;
        progress.waiting--;
        report();
        harvestOne(sources[index]).then((summary) => {
          results[index] = summary;
          busy.set(host, busy.get(host)! - 1);
          progress.running--;
          if (summary.status === "done") progress.done++;
          else progress.failing++;
          report();
          launch();
        }, reject);
      }
    };
    launch();
  });
  return { dir: options.dir, sources: results };
}
