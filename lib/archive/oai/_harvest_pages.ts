/**
 * The harvest loop: follows resumption tokens to the end, saves the
 * position after every page the caller has taken, restarts the window when
 * a token expires, drops records already delivered, shows progress and
 * checks the announced list size.
 *
 * @module
 */

import { ProtocolError, TidepoolError } from "../../http/errors.ts";
import { attribute, child, children, textOf } from "../_xml.ts";
import { isDay } from "./_dates.ts";
import { readHeader, readRecord } from "./_records.ts";
import { type OaiContext, oaiRequest } from "./_response.ts";
import { type HarvestState, saveState } from "./_state.ts";
import type { HarvestPage, OaiRecord } from "./types.ts";

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
  signal?: AbortSignal;
}

/** Consecutive token expiries without a new record before giving up. */
const MAX_RESTARTS = 5;

/**
 * Yields the pages of a harvest.
 *
 * @param run What to harvest and where to keep the position.
 * @returns An async generator of pages; the position is saved when the next page is asked for.
 */
export async function* harvestPages(run: HarvestRun): AsyncGenerator<HarvestPage> {
  const { ctx, verb, metadataPrefix } = run;
  const s: HarvestState = run.saved?.inProgress ? { ...run.saved } : {
    version: 1,
    endpoint: run.endpoint,
    verb,
    metadataPrefix,
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
    completedAt: run.saved?.completedAt ?? null,
  };
  const save = () => run.statePath ? saveState(run.statePath, s) : Promise.resolve();
  const label = `OAI-PMH ${verb} ${metadataPrefix}${run.set ? ` set ${run.set}` : ""}`;
  const task = ctx.http.progress(label, { unit: "records" });
  const seen = new Map<string, number>();
  let maxMs = s.maxDatestamp ? Date.parse(s.maxDatestamp) : -Infinity;
  let completeListSize: number | undefined;
  let restarts = 0;
  let skipped = 0;
  let page = 0;
  let prefetched: ReturnType<typeof oaiRequest> | undefined;
  // Cancels a page requested ahead when the caller stops early (break, throw).
  const stop = new AbortController();
  const signal = run.signal ? AbortSignal.any([run.signal, stop.signal]) : stop.signal;
  try {
    if (run.statePath && !run.saved?.inProgress) await save();
    for (;;) {
      const args = s.token ? { verb, resumptionToken: s.token } : {
        verb,
        metadataPrefix,
        set: s.set ?? undefined,
        from: s.from ?? undefined,
        until: s.until ?? undefined,
      };
      let answer;
      try {
        answer = await (prefetched ?? oaiRequest(ctx, args, signal));
      } catch (error) {
        prefetched = undefined;
        if (!(error instanceof ProtocolError) || error.code !== "badResumptionToken" || !s.token) {
          throw error;
        }
        if (++restarts > MAX_RESTARTS) throw error;
        restartWindow(s);
        ctx.http.warn(
          `The resumption token expired mid-harvest; restarting the window from ${
            s.from ?? "the beginning"
          } (records already received are not repeated)`,
        );
        await save();
        continue;
      }
      prefetched = undefined;
      const node = answer.verbNode;
      const records: OaiRecord[] = [];
      let arrived = 0;
      if (node) {
        const items = verb === "ListRecords" ? children(node, "record") : children(node, "header");
        arrived = items.length;
        for (const item of items) {
          const record = verb === "ListRecords"
            ? readRecord(item, metadataPrefix)
            : readHeader(item);
          if (!record) {
            skipped++;
            continue;
          }
          const ms = record.datestamp?.getTime() ?? -Infinity;
          if (ms < maxMs) s.ordered = false;
          else if (ms > maxMs || s.maxDatestamp === null) {
            maxMs = ms;
            s.maxDatestamp = record.datestampText || s.maxDatestamp;
          }
          const previous = seen.get(record.identifier);
          if (previous !== undefined && ms <= previous) continue;
          seen.set(record.identifier, ms);
          records.push(record);
        }
      }
      if (arrived > 0 || records.length > 0) restarts = 0;
      const tokenNode = node ? child(node, "resumptionToken") : undefined;
      const next = (textOf(tokenNode) ?? "").trim() || null;
      const size = Number(attribute(tokenNode, "completeListSize"));
      if (Number.isFinite(size) && attribute(tokenNode, "completeListSize") !== undefined) {
        completeListSize = size;
      }
      const cursorText = attribute(tokenNode, "cursor");
      if (next !== null && next === s.token) {
        throw new ProtocolError(
          `OAI-PMH ${verb} returned the same resumptionToken twice: ${next}`,
          { code: "repeatedToken", hint: "The repository loops; report it to its operator" },
        );
      }
      s.received += arrived;
      s.token = next;
      page++;
      if (next !== null) {
        // The next page is requested now, while the caller works on this one.
        prefetched = oaiRequest(ctx, { verb, resumptionToken: next }, signal);
        prefetched.catch(() => {}); // handled where it is awaited
      }
      task.update(s.received, {
        total: completeListSize,
        detail: `page ${page}${skipped ? `, ${skipped} without identifier skipped` : ""}`,
      });
      yield {
        records,
        page,
        completeListSize,
        cursor: cursorText === undefined ? undefined : Number(cursorText),
        responseDate: answer.responseDate,
        last: next === null,
      };
      s.delivered += records.length;
      if (next === null) break;
      await save();
    }
    if (skipped > 0) {
      ctx.http.warn(`${label}: skipped ${skipped} records whose header has no identifier`);
    }
    if (!s.restarted && completeListSize !== undefined && s.received < completeListSize) {
      ctx.http.warn(
        `${label}: the repository announced ${completeListSize} records (completeListSize) but ${s.received} arrived`,
      );
    }
    s.inProgress = false;
    if (s.maxDatestamp && (!s.highWater || Date.parse(s.maxDatestamp) > Date.parse(s.highWater))) {
      s.highWater = s.maxDatestamp;
    }
    s.completedAt = new Date().toISOString();
    Object.assign(s, {
      token: null,
      received: 0,
      delivered: 0,
      restarted: false,
      maxDatestamp: null,
    });
    await save();
    task.finish();
  } catch (error) {
    task.fail(error instanceof TidepoolError ? error.shortMessage : undefined);
    throw error;
  } finally {
    stop.abort();
  }
}

/**
 * After a token expiry: start the window again from the latest datestamp
 * received when datestamps came in order (everything before it is
 * complete), else from the window's start.
 */
function restartWindow(s: HarvestState) {
  if (s.ordered && s.maxDatestamp) {
    const day = (s.from && isDay(s.from)) || (s.until && isDay(s.until));
    s.from = day ? s.maxDatestamp.slice(0, 10) : s.maxDatestamp;
  }
  s.token = null;
  s.restarted = true;
}
