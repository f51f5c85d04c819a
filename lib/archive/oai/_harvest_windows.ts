/**
 * A table harvest with several OAI-PMH lists in flight: `from`/`until`
 * windows at the repository's granularity, from the start asked for (else
 * `earliestDatestamp`) to now, each walked by its own resumption tokens
 * through {@linkcode harvestPages}, and joined in time order.
 *
 * The windows start as many as requests may be in flight. Once every
 * window's first page has told its `completeListSize`, a window holding
 * more than half again its share of the pages is cut into smaller windows
 * (its first page is dropped: its token covers the whole window), so one
 * busy year does not leave the other requests idle. The largest windows
 * are walked first. With a state file, every finished window's records are
 * kept beside it, so a harvest that stops resumes without asking for a
 * finished window again.
 *
 * @module
 */

import { PagingCapError } from "../../paging/errors.ts";
import type { WalkReporter } from "../../paging/walk_pages.ts";
import { writeOwnFile } from "../../fs/own_file.ts";
import { DAY, formatDatestamp, parseUtc } from "./_dates.ts";
import { freshState, harvestPages, type HarvestRun } from "./_harvest_pages.ts";
import {
  type HarvestState,
  raiseHighWater,
  readSpool,
  saveState,
  type WindowState,
} from "./_state.ts";
import type { HarvestPage, OaiIdentify, OaiRecord } from "./types.ts";

const DEFAULT_MAX_PAGES = 100_000;
const DEFAULT_MAX_ROWS = 10_000_000;

/** One window being harvested. */
interface Window extends WindowState {
  startMs: number;
  endMs: number;
  /** The window's records, in the repository's order. */
  got: OaiRecord[];
  pages?: AsyncGenerator<HarvestPage>;
  /** Set (done) when the window was read whole while the windows were sized. */
  first?: IteratorResult<HarvestPage>;
  /** Pages the window holds, by its first page's completeListSize. */
  size?: number;
}

/**
 * Harvests the windows and hands back each window's records, in time order.
 *
 * @param run The harvest, already resolved (window strings at the granularity).
 * @param identify What Identify said (granularity, earliestDatestamp).
 * @param concurrency How many lists may be walked at once.
 * @returns The records of each window, earliest window first.
 */
export async function harvestWindows(
  run: HarvestRun,
  identify: OaiIdentify,
  concurrency: number,
): Promise<OaiRecord[][]> {
  const { ctx } = run;
  const granule = identify.granularity === DAY ? 86_400_000 : 1000;
  const format = (ms: number) => formatDatestamp(new Date(ms), identify.granularity);
  const dayish = (text: string | null) => text !== null && text.length === 10;
  const label = `OAI-PMH ${run.verb} ${run.metadataPrefix}${run.set ? ` set ${run.set}` : ""}`;
  const task = ctx.http.progress(label, { unit: "records" });
  const maxPages = run.paging?.maxPages ?? DEFAULT_MAX_PAGES;
  const maxRows = run.paging?.maxRows ?? DEFAULT_MAX_ROWS;
  const state: HarvestState | undefined = run.statePath ? freshState(run) : undefined;
  let pages = 0;
  let records = 0;
  const quiet: WalkReporter = {
    progress: () => ({ update() {}, finish() {}, fail() {} }),
    warn: (message) => ctx.http.warn(message),
  };

  /** Windows cutting `startMs` to before `endMs`; the outer ends keep the bounds given. */
  const cut = (
    startMs: number,
    endMs: number,
    parts: number,
    from: string | null,
    until: string | null,
  ): Window[] => {
    const granules = Math.max(1, Math.round((endMs - startMs) / granule));
    const count = Math.max(1, Math.min(parts, granules));
    return Array.from({ length: count }, (_, i) => {
      const a = startMs + Math.round((granules * i) / count) * granule;
      const b = startMs + Math.round((granules * (i + 1)) / count) * granule;
      return {
        from: i === 0 ? from : format(a),
        until: i === count - 1 ? until : format(b - granule),
        done: false,
        records: 0,
        startMs: a,
        endMs: b,
        got: [],
      };
    });
  };

  // Every window's from and until at the repository's granularity (a day asked of a
  // repository of seconds is its first or last second), so none mixes the two.
  const runFrom = run.from && granule === 1000 && dayish(run.from)
    ? `${run.from}T00:00:00Z`
    : run.from;
  const runUntil = run.until && granule === 1000 && dayish(run.until)
    ? `${run.until}T23:59:59Z`
    : run.until;
  let windows: Window[];
  if (run.saved?.inProgress && run.saved.windows) {
    windows = await resumed(
      run,
      run.saved.windows,
      granule,
      parseUtc(identify.earliestDatestamp)?.getTime() ?? 0,
    );
  } else {
    const startMs = floorTo(
      parseUtc(runFrom ?? identify.earliestDatestamp)?.getTime() ?? Date.now(),
      granule,
    );
    const end = runUntil ? parseUtc(runUntil)?.getTime() : undefined;
    const endMs = floorTo(end ?? Date.now(), granule) + granule;
    windows = cut(startMs, Math.max(endMs, startMs + granule), concurrency, runFrom, runUntil);
  }
  const stop = new AbortController();
  const user = run.paging?.signal;
  const signal = user ? AbortSignal.any([user, stop.signal]) : stop.signal;

  const save = async () => {
    if (!state || !run.statePath) return;
    state.windows = windows.map(({ from, until, done, records }) => ({
      from,
      until,
      done,
      records,
    }));
    await saveState(run.statePath, state);
  };

  /** A window's walk; `maxPages: 1` reads its first page with nothing asked for after it. */
  const walk = (w: Window, maxPages?: number) =>
    harvestPages({
      ...run,
      from: w.from,
      until: w.until,
      statePath: undefined,
      saved: undefined,
      eager: true,
      reporter: quiet,
      paging: { signal, maxPages },
    });

  /**
   * Reads a window's first page, which tells its size. A window of one page is
   * done; another is walked again from its start later (one request more per
   * window), since leaving a page ahead in flight to be dropped would make the
   * server serve more requests at once than the cap.
   */
  const open = async (w: Window) => {
    const probe = walk(w, 1);
    const first = await probe.next();
    await probe.return(undefined);
    if (first.done || first.value.last) {
      if (!first.done) note(w, first.value);
      w.first = { done: true, value: undefined };
      w.size = 1;
      return;
    }
    pages++;
    const { completeListSize } = first.value;
    const length = Math.max(1, first.value.records.length);
    w.size = completeListSize ? Math.ceil(completeListSize / length) : 1;
  };

  const note = (w: Window, page: HarvestPage) => {
    w.got.push(...page.records);
    if (++pages > maxPages) throw new PagingCapError(label, "maxPages", maxPages, "harvest()");
    records += page.records.length;
    if (records > maxRows) throw new PagingCapError(label, "maxRows", maxRows, "harvest()");
    const finished = windows.filter((x) => x.done).length;
    task.update(records, {
      detail:
        `${finished} of ${windows.length} windows, ${ctx.http.inFlight.requests} requests in flight`,
    });
  };

  /** Walks the rest of a window; keeps its records beside the state file when done. */
  const finish = async (w: Window) => {
    if (!w.first?.done) {
      w.pages = walk(w);
      for (let step = await w.pages.next(); !step.done; step = await w.pages.next()) {
        note(w, step.value);
      }
    }
    w.done = true;
    w.records = w.got.length;
    if (run.statePath) await writeSpool(spoolOf(run.statePath, w), w.got);
    await save();
  };

  try {
    await save();
    let pending = windows.filter((w) => !w.done);
    // Size the windows by their first pages; cut those far above their share, twice at most.
    for (let round = 0; round < 3 && pending.length > 0; round++) {
      await pool(pending.filter((w) => w.size === undefined), concurrency, open);
      const total = pending.reduce((sum, w) => sum + (w.size ?? 1), 0);
      const share = Math.max(1, Math.ceil(total / concurrency));
      const cuts = pending.filter((w) =>
        (w.size ?? 1) > 1.5 * share && w.endMs - w.startMs > granule
      );
      if (cuts.length === 0) break;
      for (const w of cuts) {
        const parts = cut(
          w.startMs,
          w.endMs,
          Math.min(concurrency, Math.ceil(w.size! / share)),
          w.from,
          w.until,
        );
        windows.splice(windows.indexOf(w), 1, ...parts);
      }
      await save();
      pending = windows.filter((w) => !w.done);
    }
    // The largest first, so that no long window starts last.
    pending.sort((a, b) => (b.size ?? 1) - (a.size ?? 1));
    await pool(pending, concurrency, finish);
    task.finish(`${pages} pages in ${windows.length} windows`);
    const got = windows.map((w) => w.got);
    if (state && run.statePath) await complete(run.statePath, state, windows);
    return got;
  } catch (error) {
    task.fail();
    throw error;
  } finally {
    stop.abort();
    await Promise.all(windows.map((w) => w.pages?.return(undefined as never).catch(() => {})));
  }
}

/** The end of a windowed harvest: its high-water mark kept, the window spools removed. */
async function complete(path: string, state: HarvestState, windows: readonly Window[]) {
  let latest = -Infinity;
  let latestText: string | null = null;
  let atLatest: string[] = [];
  for (const w of windows) {
    for (const record of w.got) {
      const ms = record.datestamp?.getTime();
      if (ms === undefined) continue;
      if (ms > latest) {
        latest = ms;
        latestText = record.datestampText || latestText;
        atLatest = [record.identifier];
      } else if (ms === latest) atLatest.push(record.identifier);
    }
  }
  raiseHighWater(state, latestText, atLatest);
  Object.assign(state, {
    inProgress: false,
    windows: undefined,
    completedAt: new Date().toISOString(),
  });
  await saveState(path, state);
  await Promise.all(windows.map((w) => Deno.remove(spoolOf(path, w)).catch(() => {})));
}

/** The windows of an interrupted harvest: finished ones read back from their spools. */
async function resumed(
  run: HarvestRun,
  saved: readonly WindowState[],
  granule: number,
  earliestMs: number,
): Promise<Window[]> {
  const out: Window[] = [];
  for (const w of saved) {
    const until = parseUtc(w.until ?? undefined)?.getTime();
    const window: Window = {
      ...w,
      startMs: parseUtc(w.from ?? undefined)?.getTime() ?? earliestMs,
      endMs: until === undefined ? floorTo(Date.now(), granule) + granule : until + granule,
      got: [],
    };
    if (w.done) {
      window.got = await readSpool(spoolOf(run.statePath!, w), w.records);
      window.first = { done: true, value: undefined };
    }
    out.push(window);
  }
  return out;
}

/** The spool of one finished window, beside the state file. */
export function spoolOf(statePath: string, w: Pick<WindowState, "from" | "until">): string {
  const part = (text: string | null) => (text ?? "open").replace(/[^0-9A-Za-z-]/g, "");
  return `${statePath}.window-${part(w.from)}-${part(w.until)}.ndjson`;
}

async function writeSpool(path: string, records: readonly OaiRecord[]): Promise<void> {
  let text = "";
  for (const { datestamp: _, ...rest } of records) text += JSON.stringify(rest) + "\n";
  await writeOwnFile(path, text);
}

function floorTo(ms: number, granule: number): number {
  return Math.floor(ms / granule) * granule;
}

/** Runs `work` over the items, at most `limit` at once; the first failure stops the rest. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
