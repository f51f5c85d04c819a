/**
 * A harvest on the paging engine: the resumption token is its cursor; this
 * file saves the position after every page the caller has taken, restarts
 * the window when a token expires, drops records already delivered and
 * checks the announced list size.
 *
 * @module
 */

import { ProtocolError } from "../../errors/errors.ts";
import { reportUnknownShape } from "../../http/unknown_shape.ts";
import { namedCursor } from "../../paging/cursors.ts";
import { SeenKeys } from "../../paging/_seen_keys.ts";
import type { PagedReadOptions } from "../../paging/types.ts";
import { walkPages, type WalkReporter } from "../../paging/walk_pages.ts";
import { attribute, child, textOf } from "../../xml/xml.ts";
import { isDay, parseUtc } from "./_dates.ts";
import { readHeader, readRecord } from "./_records.ts";
import { type OaiAnswer, type OaiContext, type OaiItems, oaiRequest } from "./_response.ts";

import {
  type HarvestState,
  type HeldRecords,
  isHeld,
  raiseHighWater,
  removeWindowSpools,
  saveState,
} from "./_state.ts";
import type { HarvestPage, OaiRecord } from "./types.ts";

/** A list item read: its record, or what it looked like when it has no identifier. */
interface HarvestItem {
  record?: OaiRecord;
  shape?: string;
}

/** A resolved harvest: window strings already at the repository's granularity. */
export interface HarvestRun {
  ctx: OaiContext;
  endpoint: string;
  verb: "ListRecords" | "ListIdentifiers";
  metadataPrefix: string;
  set: string | null;
  from: string | null;
  until: string | null;
  /** The state file, if the harvest is resumable. */
  statePath?: string;
  /** The saved state: continued when in progress, its high-water mark kept otherwise. */
  saved?: HarvestState;
  /** The per-call signal and caps. */
  paging?: PagedReadOptions;
  /** Refuse a record without an identifier instead of skipping it with a warning. */
  strict?: boolean;
  /** The harvest builds a table itself: the next page is requested before a page is handed on. */
  eager?: boolean;
  /** The next page is requested only when asked for: a window waiting its turn holds no request. */
  onDemand?: boolean;
  /** Where progress and warnings go; default the client (a window of a parallel harvest reports apart). */
  reporter?: WalkReporter;
  /** Keep each record's XML as sent. */
  raw?: boolean;
  /** What an incremental harvest already holds, dropped when it comes again. */
  held?: HeldRecords;
}

/**
 * Yields the pages of a harvest. The paging engine follows the tokens,
 * reads the next page ahead while the caller works on this one, and gives
 * up after five restarts in a row that brought no new record.
 *
 * @param run What to harvest and where to keep the position.
 * @returns An async generator of pages; the position is saved when the next page is asked for.
 */
export async function* harvestPages(run: HarvestRun): AsyncGenerator<HarvestPage> {
  const { ctx, verb, metadataPrefix } = run;
  const s: HarvestState = run.saved?.inProgress ? { ...run.saved } : freshState(run);
  const save = () => run.statePath ? saveState(run.statePath, s) : Promise.resolve();
  const label = `OAI-PMH ${verb} ${metadataPrefix}${run.set ? ` set ${run.set}` : ""}`;
  // Every identifier handed on in this harvest, with its datestamp: exact
  // and never windowed (a restarted window repeats records from far back),
  // about 16 bytes a record, so a harvest of millions stays flat in memory.
  const seen = new SeenKeys();
  let maxMs = s.maxDatestamp ? Date.parse(s.maxDatestamp) : -Infinity;
  let completeListSize: number | undefined;
  let skipped = 0;
  // What the page being handed on said besides its records.
  let about: Pick<HarvestPage, "cursor" | "responseDate"> = {};
  // Each record is read as its element closes, so no page stands as one tree.
  const items: OaiItems<HarvestItem> = {
    name: verb === "ListRecords" ? "record" : "header",
    raw: run.raw,
    read(node, xml) {
      const record = verb === "ListRecords"
        ? readRecord(node, metadataPrefix, xml)
        : readHeader(node, xml);
      return record ? { record } : { shape: JSON.stringify(node).slice(0, 300) };
    },
  };
  const pages = walkPages<string | undefined, OaiAnswer<HarvestItem>, OaiRecord>(
    {
      label,
      unit: "records",
      call: "harvest()",
      eager: run.eager,
      onDemand: run.onDemand,
      count: "received",
      // No page fingerprint: repositories repeat records across pages (the
      // sickle fixtures do), so a token named twice is the repeat guard.
      cursor: namedCursor<string | undefined>(
        "resumptionToken",
        s.token ?? undefined,
        (t) => t ?? "",
      ),
      fetch: (token, signal) =>
        oaiRequest(
          ctx,
          token ? { verb, resumptionToken: token } : {
            verb,
            metadataPrefix,
            set: s.set ?? undefined,
            from: s.from ?? undefined,
            until: s.until ?? undefined,
          },
          signal,
          items,
        ),
      read(answer) {
        const node = answer.verbNode;
        const records: OaiRecord[] = [];
        for (const item of answer.items) {
          const record = item.record;
          if (!record) {
            if (run.strict) {
              reportUnknownShape(ctx.http, {
                strict: true,
                message: `${label}: a record whose header has no identifier`,
                details: item.shape ?? "",
              });
            }
            skipped++;
            continue;
          }
          const ms = record.datestamp?.getTime() ?? -Infinity;
          if (ms < maxMs) s.ordered = false;
          else if (ms > maxMs || s.maxDatestamp === null) {
            maxMs = ms;
            s.maxDatestamp = record.datestampText || s.maxDatestamp;
            s.maxIdentifiers = [record.identifier];
          } else (s.maxIdentifiers ??= []).push(record.identifier);
          // `from` is inclusive: what the last run got at its newest datestamp comes again.
          if (isHeld(run.held, record)) continue;
          if (seen.admit(record.identifier, ms)) records.push(record);
        }
        const tokenNode = node ? child(node, "resumptionToken") : undefined;
        const next = (textOf(tokenNode) ?? "").trim() || null;
        const size = attribute(tokenNode, "completeListSize");
        if (size !== undefined && Number.isFinite(Number(size))) completeListSize = Number(size);
        const cursorText = attribute(tokenNode, "cursor");
        about = {
          cursor: cursorText === undefined ? undefined : Number(cursorText),
          responseDate: answer.responseDate,
        };
        s.received += answer.items.length;
        s.token = next;
        return {
          rows: records,
          received: answer.items.length,
          total: completeListSize,
          next,
        };
      },
      restartOn: (error, token) =>
        error instanceof ProtocolError && error.code === "badResumptionToken" && !!token,
      async restart() {
        restartWindow(s);
        ctx.http.warn(
          `The resumption token expired mid-harvest; restarting the window from ${
            s.from ?? "the beginning"
          } (records already received are not repeated)`,
        );
        await save();
        return undefined;
      },
      // A restarted window counts records twice; only an unbroken one is checked.
      shortfall: () =>
        !s.restarted && completeListSize !== undefined && s.received < completeListSize
          ? `${label}: the repository announced ${completeListSize} records (completeListSize) but ${s.received} arrived`
          : undefined,
    },
    run.reporter ?? ctx.http,
    run.paging,
  );
  if (run.statePath && !run.saved?.inProgress) await save();
  for await (const page of pages) {
    await seen.compact(); // between pages: it may load zlib
    yield { records: [...page.rows], page: page.page, completeListSize, ...about, last: page.last };
    s.delivered += page.rows.length;
    if (!page.last) await save();
  }
  if (skipped > 0) {
    ctx.http.warn(`${label}: skipped ${skipped} records whose header has no identifier`);
  }
  // A windowed harvest's state continued as one list (harvestRecords): its windows are done with.
  if (run.statePath && s.windows) await removeWindowSpools(run.statePath, s.windows);
  s.windows = undefined;
  s.inProgress = false;
  raiseHighWater(s, s.maxDatestamp, s.maxIdentifiers ?? []);
  s.completedAt = new Date().toISOString();
  Object.assign(s, {
    token: null,
    received: 0,
    delivered: 0,
    restarted: false,
    maxDatestamp: null,
    maxIdentifiers: undefined,
  });
  await save();
}

/**
 * After a token expiry: start the window again from the latest datestamp
 * received when datestamps came in order (everything before it is
 * complete), else from the window's start.
 */
function restartWindow(s: HarvestState) {
  if (s.ordered && s.maxDatestamp) {
    const day = (s.from && isDay(s.from)) || (s.until && isDay(s.until));
    const from = day ? s.maxDatestamp.slice(0, 10) : s.maxDatestamp;
    // A repository that lists past `until` (one that compares days only) sent a record
    // beyond the window: all up to `until` came before it, so go on from `until` itself
    // (a `from` later than `until` is a badArgument).
    const past = (parseUtc(from)?.getTime() ?? -Infinity) >
      (parseUtc(s.until ?? undefined)?.getTime() ?? Infinity);
    s.from = past ? s.until : from;
  }
  s.token = null;
  s.restarted = true;
}

/**
 * The state of a harvest about to start: nothing received yet, the
 * previous run's high-water mark and completion kept.
 */
export function freshState(run: HarvestRun): HarvestState {
  return {
    version: 1,
    endpoint: run.endpoint,
    verb: run.verb,
    metadataPrefix: run.metadataPrefix,
    set: run.set,
    inProgress: true,
    from: run.from,
    until: run.until,
    token: null,
    received: 0,
    delivered: 0,
    restarted: false,
    maxDatestamp: null,
    ordered: true,
    highWater: run.saved?.highWater ?? null,
    highWaterIdentifiers: run.saved?.highWaterIdentifiers,
    completedAt: run.saved?.completedAt ?? null,
  };
}
