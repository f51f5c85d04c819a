/**
 * The one place an adapter call gets its provenance: the call runs traced,
 * and the table it returns is attached what produced it.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { type CallTrace, traceCall } from "./call_trace.ts";
import { redact, redactParams } from "../errors/redact.ts";
import { TIDEPOOL_VERSION } from "../version.ts";
import { attachProvenance, type Provenance } from "./provenance.ts";

/** "As of" fields; undefined and null values are left out. */
export type AsOfFields = Record<string, string | number | null | undefined>;

/** The call an adapter method makes, as its provenance names it. */
export interface ProvenanceCall {
  /** The service base URL; credentials and query string are dropped. */
  service: string;
  /** `Class.method`, such as `OceanNode.searchAssets`. */
  operation: string;
  /** The call's parameters as given; secrets are removed here. */
  params: Record<string, unknown>;
  /**
   * "As of" fields the answers do not note themselves (a SPARQL endpoint, a
   * node's version), or a function that looks them up once the call has
   * succeeded, outside its trace; the answers' own notes win.
   */
  asOf?: AsOfFields | (() => Promise<AsOfFields>);
}

/**
 * Runs an adapter call traced and attaches its provenance to the tables it
 * returns (the value itself when it is a table, else those `tablesOf` picks).
 *
 * @param call The service, operation and parameters.
 * @param run The call.
 * @param tablesOf The tables of a value that is not a table (a search's `hits` and `facets`).
 * @returns What the call returned, unchanged.
 *
 * @example A traced call
 * ```ts
 * import * as aq from "arquero";
 * import { provenance } from "./provenance.ts";
 * const table = await withProvenance(
 *   { service: "http://127.0.0.1:1/", operation: "Demo.rows", params: { apiKey: "k-0123456789" } },
 *   () => Promise.resolve(aq.table({ n: [1, 2] })),
 * );
 * console.log(provenance(table)?.params, provenance(table)?.rows); // {} 2
 * ```
 */
export async function withProvenance<T>(
  call: ProvenanceCall,
  run: () => Promise<T>,
  tablesOf?: (value: T) => readonly (ColumnTable | undefined)[],
): Promise<T> {
  const calledAt = new Date().toISOString();
  const { value, trace } = await traceCall(run, call.operation);
  // A call that sent nothing through the HTTP client (a chain read) is timed as a whole.
  const finishedAt = new Date().toISOString();
  const record = await callRecord(call, trace, calledAt, finishedAt);
  const tables = tablesOf ? tablesOf(value) : [value as ColumnTable];
  for (const table of tables) if (table) attachProvenance(table, record);
  return value;
}

/** A page's provenance without its row count, as {@linkcode pagesWithProvenance} hands it to `mark`. */
export type PageProvenance = Omit<Provenance, "rows">;

/**
 * Hands on the pages of a page-by-page read (`orderPages`, `searchPages`...),
 * each with its own provenance: the call and its parameters, the page's
 * number, and the times, cache keys and "as of" of the requests that
 * produced that page alone.
 *
 * Each step is traced on its own: a generator runs in the context of the
 * `next()` that resumes it, so the trace of a step is that page's, whoever
 * consumes which generator in between. Pages read ahead are traced apart
 * and noted when taken (see `walkPages`), so a page does not count the
 * request of the page after it.
 *
 * @param call The service, operation and parameters.
 * @param pages The pages.
 * @param mark Records a page's provenance; by default the page is a table and gets it attached.
 * @returns The same pages, then what the read returns.
 *
 * @example Two pages, each with its row count
 * ```ts
 * import * as aq from "arquero";
 * import { provenance } from "./provenance.ts";
 * async function* pages() {
 *   yield aq.table({ n: [1, 2] });
 *   yield aq.table({ n: [3] });
 * }
 * const call = { service: "http://127.0.0.1:1/", operation: "Demo.pages", params: {} };
 * for await (const page of pagesWithProvenance(call, pages())) {
 *   console.log(provenance(page)?.page, provenance(page)?.rows); // 1 2, then 2 1
 * }
 * ```
 */
export async function* pagesWithProvenance<T, R>(
  call: ProvenanceCall,
  pages: AsyncIterator<T, R>,
  mark: (page: T, record: PageProvenance) => void = (page, record) =>
    void attachProvenance(page as ColumnTable, record),
): AsyncGenerator<T, R> {
  let finished = false;
  try {
    for (let number = 1;; number++) {
      const calledAt = new Date().toISOString();
      const { value: step, trace } = await traceCall(() => pages.next(), call.operation);
      if (step.done) {
        finished = true;
        return step.value;
      }
      const finishedAt = new Date().toISOString();
      mark(step.value, { ...await callRecord(call, trace, calledAt, finishedAt), page: number });
      yield step.value;
    }
  } finally {
    // A consumer that stops early stops the read too (its requests in flight, its files).
    if (!finished) await pages.return?.();
  }
}

async function callRecord(
  call: ProvenanceCall,
  trace: CallTrace,
  calledAt: string,
  finishedAt: string,
): Promise<Omit<Provenance, "rows">> {
  return {
    service: serviceAddress(call.service),
    operation: call.operation,
    params: redactParams(call.params),
    tidepoolVersion: TIDEPOOL_VERSION,
    startedAt: trace.startedAt ?? calledAt,
    endedAt: trace.endedAt ?? finishedAt,
    asOf: {
      ...definedFields(typeof call.asOf === "function" ? await call.asOf() : call.asOf),
      ...trace.asOf,
    },
    cacheKeys: trace.cacheKeys,
    ...(trace.authenticated ? { readWithKey: true } : {}),
  };
}

function definedFields(fields: AsOfFields = {}): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined) out[name] = value;
  }
  return out;
}

/** A service URL without credentials, query, fragment or registered secrets (a key in the path). */
function serviceAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return redact(parsed.toString().replace(/\/+$/, ""));
  } catch {
    return "";
  }
}
