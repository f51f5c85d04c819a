/**
 * A table harvest with several OAI-PMH lists in flight: `from`/`until`
 * windows at the repository's granularity, from the start asked for (else
 * `earliestDatestamp`) to now, each walked by its own resumption tokens
 * through {@linkcode harvestPages}, and joined in time order.
 *
 * A list is read one page after another, so the longest window sets the
 * end. The windows start as many as requests may be in flight, cut evenly
 * in time; their first pages tell how many records each holds
 * (`completeListSize`). If one would still be read long after the others,
 * the range is cut once more where the records are (those first pages are
 * dropped); otherwise each list goes on from its first page. The lanes then
 * walk the largest windows first; one still far longer than its share
 * (records bunched in a short stretch) is cut in parts, its bunched
 * second or day set apart, three times at most. A list waiting its turn
 * holds no request at the server. With a state file, every finished
 * window's records are kept beside it, so a harvest that stops resumes
 * without asking for a finished window again.
 *
 * @module
 */

import { PagingCapError } from "../../paging/errors.ts";
import type { WalkReporter } from "../../paging/walk_pages.ts";
import { DAY, formatDatestamp, parseUtc } from "./_dates.ts";
import { freshState, harvestPages, type HarvestRun } from "./_harvest_pages.ts";
import { type HarvestState, saveState, spoolOf } from "./_state.ts";
import { complete, floorTo, resumed, type Window, writeSpool } from "./_window_state.ts";
import { balancedCuts, evenCuts, splitCuts } from "./_window_cuts.ts";
import { drainQueue } from "./_window_queue.ts";
import { joinWindows, keepingLeftOut, orderOf, undecided } from "./_join_windows.ts";
import type { HarvestPage, OaiIdentify, OaiRecord } from "./types.ts";

const DEFAULT_MAX_PAGES = 100_000;
const DEFAULT_MAX_ROWS = 10_000_000;
/** Recut only when the longest window would run this many pages past an even share. */
const RECUT_GAIN_PAGES = 3;
/**
 * Times a long window and its parts are cut, at most: each costs a page of
 * its lane and narrows where its records are four times (at four lists in
 * flight), and records bunched in one second cannot be split.
 */
const MAX_SPLITS = 3;

/**
 * Harvests the windows and hands back each window's records, in time order.
 *
 * @param run The harvest, already resolved (window strings at the granularity).
 * @param identify What Identify said (granularity, earliestDatestamp).
 * @param concurrency How many lists may be walked at once.
 * @returns Every window's records, in the order the repository's one list gives them where the
 *   windows tell it ({@linkcode joinWindows}).
 */
export async function harvestWindows(
  run: HarvestRun,
  identify: OaiIdentify,
  concurrency: number,
): Promise<OaiRecord[]> {
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
  /**
   * The identifiers read, once each: the table's rows, which `maxRows` caps
   * (a record listed in two windows, or by a repository that ignores
   * `from` and `until` in every window, is one row).
   */
  const rowIds = new Set<string>();
  const quiet: WalkReporter = {
    progress: () => ({ update() {}, finish() {}, fail() {} }),
    warn: (message) => ctx.http.warn(message),
  };

  /** Windows between the bounds; the outer ends keep the `from` and `until` given. */
  const windowsAt = (bounds: readonly number[], from: string | null, until: string | null) =>
    bounds.slice(1).map((endMs, i): Window => ({
      from: i === 0 ? from : format(bounds[i]),
      until: i === bounds.length - 2 ? until : format(endMs - granule),
      done: false,
      records: 0,
      startMs: bounds[i],
      endMs,
      got: [],
    }));

  // Every window's from and until at the repository's granularity (a day asked of a
  // repository of seconds is its first or last second), so none mixes the two.
  const runFrom = run.from && granule === 1000 && dayish(run.from)
    ? `${run.from}T00:00:00Z`
    : run.from;
  const runUntil = run.until && granule === 1000 && dayish(run.until)
    ? `${run.until}T23:59:59Z`
    : run.until;
  const resuming = !!(run.saved?.inProgress && run.saved.windows);
  let windows: Window[];
  if (resuming) {
    windows = await resumed(
      run,
      run.saved!.windows!,
      granule,
      parseUtc(identify.earliestDatestamp)?.getTime() ?? 0,
    );
  } else {
    const startMs = floorTo(
      parseUtc(runFrom ?? identify.earliestDatestamp)?.getTime() ?? Date.now(),
      granule,
    );
    const end = runUntil ? parseUtc(runUntil)?.getTime() : undefined;
    const endMs = Math.max(floorTo(end ?? Date.now(), granule) + granule, startMs + granule);
    windows = windowsAt(evenCuts(startMs, endMs, concurrency, granule), runFrom, runUntil);
  }
  const stop = new AbortController();
  const user = run.paging?.signal;
  const signal = user ? AbortSignal.any([user, stop.signal]) : stop.signal;
  /** A lane failed: the others stop at once (the queue waits for them to settle). */
  const halt = () => stop.abort();

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

  /** A window's list, open; nothing is asked for until its first page is. */
  const listOf = (w: Window) =>
    harvestPages({
      ...run,
      from: w.from,
      until: w.until,
      statePath: undefined,
      saved: undefined,
      eager: false,
      onDemand: true,
      reporter: quiet,
      paging: { signal },
    });

  /** Opens a window's list and reads its first page, which tells its size. */
  const open = async (w: Window) => {
    w.pages = listOf(w);
    const first = await ask(w);
    if (first.done) {
      w.ended = true;
      w.size = 0;
      return;
    }
    w.ended = first.value.last;
    w.size = first.value.last ? first.value.records.length : first.value.completeListSize;
  };

  /**
   * Asks for a window's next page within the page cap: the pages read and
   * those being read count, so that no lane sends a request past it (as one
   * list never does).
   */
  let asking = 0;
  const ask = async (w: Window) => {
    if (pages + asking >= maxPages) {
      throw new PagingCapError(label, { cap: "maxPages", limit: maxPages, call: "harvest()" });
    }
    asking++;
    let step: IteratorResult<HarvestPage>;
    try {
      step = await w.pages!.next();
    } finally {
      asking--;
    }
    // Counted as read in the same turn as it stops being asked, so that no lane sees it in neither.
    if (!step.done) note(w, step.value);
    return step;
  };

  const note = (w: Window, page: HarvestPage) => {
    w.got.push(...page.records);
    w.said = page.completeListSize;
    pages++;
    for (const record of page.records) rowIds.add(record.identifier);
    const records = rowIds.size;
    if (records > maxRows) {
      throw new PagingCapError(label, { cap: "maxRows", limit: maxRows, call: "harvest()" });
    }
    const finished = windows.filter((x) => x.done).length;
    task.update(records, {
      detail:
        `${finished} of ${windows.length} windows, ${ctx.http.inFlight.requests} requests in flight`,
    });
  };

  /** Closes a window's list, for a window cut again (its records come again in its parts). */
  const drop = async (w: Window) => {
    await w.pages?.return(undefined);
  };

  /** Up to the page said to be the last: asking past it would count against the cap. */
  const readRest = async (w: Window) => {
    while (!w.ended) {
      const step = await ask(w);
      if (step.done) break;
      w.ended = step.value.last;
    }
  };

  /** Records a list may hold before it is cut in parts (once the windows' sizes are known). */
  let longAt = Infinity;

  /**
   * Walks the rest of a window; keeps its records beside the state file when
   * done. A window far longer than its share is cut in parts by time instead,
   * queued for the lanes (records bunched in a short stretch, which the
   * even cuts did not find).
   */
  const finish = async (w: Window, queue: Window[]) => {
    if (!w.pages) await open(w);
    const depth = w.depth ?? 0;
    if (
      !w.ended && (w.size ?? 0) > longAt && w.endMs - w.startMs > granule && depth < MAX_SPLITS
    ) {
      const stamps = w.got.flatMap((r) => r.datestamp ? [r.datestamp.getTime()] : []);
      await drop(w);
      const bounds = splitCuts(w.startMs, w.endMs, concurrency, granule, stamps);
      const parts = windowsAt(bounds, w.from, w.until).map((part) => ({
        ...part,
        depth: depth + 1,
      }));
      windows.splice(windows.indexOf(w), 1, ...parts);
      queue.push(...parts);
      await save();
      return;
    }
    await readRest(w);
    // A record that left the list between pages (edited: stamped now, in the last window)
    // moves the records after it up by one where a token says where the next page starts:
    // one of them was never sent. The list then ends shorter than its first page said, as
    // many records as were read (a repository making its sizes up rarely says that).
    // Read once more, keeping what only the first reading got.
    if (!w.reread && w.said !== undefined && w.got.length === w.said && w.said < (w.size ?? 0)) {
      const before = w.got;
      Object.assign(w, { got: [], size: undefined, ended: false, reread: true });
      await drop(w);
      await open(w);
      await readRest(w);
      w.got = keepingLeftOut(before, w.got);
    }
    w.done = true;
    w.records = w.got.length;
    if (run.statePath) await writeSpool(spoolOf(run.statePath, w), w.got);
    await save();
  };

  /**
   * Bounds that share the windows' records out evenly over the lists in
   * flight, or undefined when the windows are even enough already or their
   * sizes are not known.
   */
  const recut = (pending: readonly Window[]): number[] | undefined => {
    const sized = sizing(pending);
    if (!sized) return undefined;
    const { perPage, total } = sized;
    const longest = Math.max(...pending.map((w) => w.size!));
    if ((longest - total / concurrency) / perPage < RECUT_GAIN_PAGES) return undefined;
    const bounds = balancedCuts(
      pending.map((w) => ({ startMs: w.startMs, endMs: w.endMs, weight: w.size! })),
      concurrency,
      granule,
    );
    const same = bounds.length === pending.length + 1 &&
      pending.every((w, i) => w.startMs === bounds[i] && w.endMs === bounds[i + 1]);
    return same ? undefined : bounds;
  };

  /**
   * The repository's order where every window could be either: one page of
   * the stretch from the last record of a window to the first of the next,
   * which lists the two by datestamp or by identifier (undefined past the
   * page cap, or when that page cannot tell).
   */
  const askOrder = async ([early, late]: [OaiRecord, OaiRecord]) => {
    const [from, until] = [early, late].map((r) => floorTo(r.datestamp!.getTime(), granule));
    const [probe] = windowsAt([from, until + granule], format(from), format(until));
    probe.pages = listOf(probe);
    try {
      const first = await ask(probe);
      const order = first.done ? undefined : orderOf(first.value.records);
      return order === "datestamp" || order === "identifier" ? order : undefined;
    } catch (error) {
      if (error instanceof PagingCapError) return undefined;
      throw error;
    } finally {
      await drop(probe);
    }
  };

  try {
    await save();
    let pending = windows.filter((w) => !w.done);
    await drainQueue([...pending], concurrency, () => 0, open, halt);
    // A fresh harvest's windows are contiguous: cut them once more where the records
    // are. Once is enough where they are spread out; records bunched closer than a
    // window are found by the lanes below, which cut a long window in parts.
    const bounds = resuming ? undefined : recut(pending);
    if (bounds) {
      await Promise.all(pending.map(drop));
      windows = windowsAt(bounds, runFrom, runUntil);
      pending = [...windows];
      await save();
      await drainQueue([...pending], concurrency, () => 0, open, halt);
    }
    const sized = sizing(pending);
    if (sized) longAt = sized.total / concurrency + RECUT_GAIN_PAGES * sized.perPage;
    // The largest first, so that no long window starts last; a window not read yet before all.
    const left = (w: Window) =>
      !w.pages ? Infinity : w.ended ? 0 : (w.size ?? Infinity) - w.got.length;
    const queue = [...pending];
    await drainQueue(queue, concurrency, largest(left), (w) => finish(w, queue), halt);
    task.finish(`${pages} pages in ${windows.length} windows`);
    const lists = windows.map((w) => w.got);
    const pair = undecided(lists);
    const got = joinWindows(lists, pair && await askOrder(pair));
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

/**
 * The records the opened windows hold in all, by their first pages'
 * `completeListSize`, and the records of the fullest first page (a page's
 * length); undefined when a window did not say its size.
 */
function sizing(windows: readonly Window[]): { total: number; perPage: number } | undefined {
  if (windows.some((w) => w.size === undefined)) return undefined;
  return {
    total: windows.reduce((sum, w) => sum + w.size!, 0),
    perPage: Math.max(1, ...windows.map((w) => w.got.length)),
  };
}

/** Picks the item `size` says is largest. */
function largest<T>(size: (item: T) => number) {
  return (queue: readonly T[]) => {
    let best = 0;
    for (let i = 1; i < queue.length; i++) if (size(queue[i]) > size(queue[best])) best = i;
    return best;
  };
}
