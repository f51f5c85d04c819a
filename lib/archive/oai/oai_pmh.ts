/**
 * An OAI-PMH 2.0 harvester: the repository description, formats and sets
 * as tables, single records, and whole harvests as a table or as a stream
 * of pages, resumable and incremental with a state file.
 *
 * @module
 */

import { ARCHIVE_PACING } from "../_pacing.ts";
import { noteAsOf } from "../../table/call_trace.ts";
import { pagesWithProvenance, withProvenance } from "../../table/with_provenance.ts";
import { frozenProvenance } from "../../table/provenance.ts";
import type { ColumnTable } from "arquero";
import { HttpClient } from "../../http/client.ts";
import { ProtocolError, TidepoolError } from "../../errors/errors.ts";
import { redact } from "../../errors/redact.ts";
import { namedCursor } from "../../paging/cursors.ts";
import type { PagedReadOptions } from "../../paging/types.ts";
import { abortable } from "../../paging/_abortable.ts";
import { checkOptions } from "../../options/check_options.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../../http/options.ts";
import { checkCall, HARVEST_OPTION_RULES, OAI_PMH_RULES } from "../_option_rules.ts";
import { reportUnknownShape, type StrictOption } from "../../http/unknown_shape.ts";
import { buildTable, type DynamicColumns, TableBuilder } from "../../table/build_table.ts";
import type { XmlNode } from "../../xml/xml.ts";
import { DAY, formatDatestamp, isDay, nextFrom, parseUtc } from "./_dates.ts";
import { dateInput, isIsoDay, windowStart } from "../../table/date_input.ts";
import type { HarvestRun } from "./_harvest_pages.ts";
import type { IdentifyReading } from "./_identify.ts";
import type { HarvestState } from "./_state.ts";
import type { OaiContext } from "./_response.ts";
import { formatSchema, harvestSchema, setSchema } from "./_schemas.ts";
import type { TableSchema } from "../../table/schema.ts";
import type {
  HarvestOptions,
  HarvestPage,
  OaiIdentify,
  OaiPmhOptions,
  OaiRecord,
} from "./types.ts";

// Each verb's code (the requests, the XML reader, the page walk, the state
// file) loads on its first call, so that importing tidepool stays quick
// (bench/import_bench.ts); a loaded module is not loaded again.
const responseCode = () => import("./_response.ts");
const xmlCode = () => import("../../xml/xml.ts");
const walkCode = () => import("../../paging/walk_pages.ts");
const harvestCode = () => import("./_harvest_pages.ts");
const windowsCode = () => import("./_harvest_windows.ts");
const identifyCode = () => import("./_identify.ts");
const recordsCode = () => import("./_records.ts");
const stateCode = () => import("./_state.ts");

const METADATA_COLUMNS: DynamicColumns<OaiRecord> = { read: (r) => r.metadata, type: "array" };

/** The keys of {@linkcode HarvestOptions}; each value is checked where it is read, with its own message. */
/**
 * A client of one OAI-PMH endpoint.
 *
 * @example Harvesting Dublin Core records into a table
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * const oai = new OaiPmh(`${sandbox.url}/shinano/letters/api/oai`, { progress: false });
 * const records = await oai.harvest({ metadataPrefix: "oai_dc", from: "2026-01-01" });
 * console.log(records.numRows(), records.columnNames());
 * ```
 */
export class OaiPmh {
  readonly #ctx: OaiContext;
  #identify?: Promise<IdentifyReading & { warned: boolean; details: string }>;

  /**
   * Creates a harvester of one OAI-PMH endpoint, either on its own client or sharing one.
   *
   * @param endpoint An `HttpClient` (with the endpoint path as the second
   *   argument), or the endpoint's full URL (with client options second).
   * @param pathOrOptions The endpoint path below the client's base URL, or the client options.
   * @param options OAI-PMH options when a client is given.
   */
  constructor(
    endpoint: HttpClient | string,
    pathOrOptions?: string | (ClientOptions & OaiPmhOptions),
    options: OaiPmhOptions = {},
  ) {
    if (typeof endpoint === "string") {
      const opts = checkOptions(
        "new OaiPmh",
        typeof pathOrOptions === "object" ? pathOrOptions : {},
        { ...CLIENT_OPTION_RULES, ...OAI_PMH_RULES },
      );
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        throw new TidepoolError(`Invalid OAI-PMH endpoint URL: ${endpoint}`, {
          hint:
            "Give the absolute URL of the endpoint, such as https://archive.example/acme/letters/api/oai",
        });
      }
      this.#ctx = {
        http: new HttpClient(url.origin, { ...opts, defaults: ARCHIVE_PACING }),
        // The endpoint's own query (an API key some repositories require) goes with every verb.
        path: url.pathname + url.search,
        allowOtherHosts: opts.allowOtherHosts ?? false,
      };
    } else {
      checkOptions("new OaiPmh", options, OAI_PMH_RULES);
      this.#ctx = {
        http: endpoint,
        path: typeof pathOrOptions === "string" ? pathOrOptions : "/",
        allowOtherHosts: options.allowOtherHosts ?? false,
      };
    }
  }

  /** The endpoint URL. */
  get endpoint(): string {
    return this.#ctx.http.url(this.#ctx.path).toString();
  }

  /**
   * Describes the repository (Identify). The answer is kept for the life of
   * the client. An answer OAI-PMH 2.0 does not allow (a required element
   * missing, an earliestDatestamp that is no date, an unknown granularity or
   * deletedRecord value) is read as far as it goes with one warning, or with
   * `strict` is a `ProtocolError` (code `unknownShape`).
   *
   * @param options `strict` to refuse an answer OAI-PMH 2.0 does not allow.
   * @returns Name, base URL, granularity, deleted-record support and contacts.
   * @throws {ProtocolError} With code `unknownShape` under `strict`.
   */
  async identify(options: StrictOption = {}): Promise<OaiIdentify> {
    checkCall("identify", options);
    this.#identify ??= this.#readIdentify().catch((error) => {
      this.#identify = undefined;
      throw error;
    });
    const reading = await this.#identify;
    // Warned once per client; strict refuses on every call.
    if (reading.problems.length > 0 && (options.strict || !reading.warned)) {
      if (!options.strict) reading.warned = true;
      reportUnknownShape(this.#ctx.http, {
        strict: options.strict,
        message: `The repository's Identify answer is not what OAI-PMH 2.0 requires: ${
          reading.problems.join("; ")
        }`,
        details: reading.details,
      });
    }
    return reading.identify;
  }

  async #readIdentify(): Promise<IdentifyReading & { warned: boolean; details: string }> {
    const { verbNode } = await (await responseCode()).oaiRequest(this.#ctx, { verb: "Identify" });
    return {
      ...(await identifyCode()).readIdentify(verbNode),
      warned: false,
      details: JSON.stringify(verbNode).slice(0, 300),
    };
  }

  /**
   * The metadata formats of the repository, or of one item.
   *
   * @param options An identifier to ask about one item.
   * @returns A table with `metadataPrefix`, `schema`, `metadataNamespace`.
   */
  async listMetadataFormats(options: { identifier?: string } = {}): Promise<ColumnTable> {
    checkCall("listMetadataFormats", options);
    return await this.#table("listMetadataFormats", { ...options }, async () => {
      const [{ oaiRequest }, { child, children, textOf }] = await Promise.all([
        responseCode(),
        xmlCode(),
      ]);
      const { verbNode } = await oaiRequest(this.#ctx, {
        verb: "ListMetadataFormats",
        identifier: options.identifier,
      });
      const rows = children(verbNode, "metadataFormat").map((f) => ({
        metadataPrefix: textOf(child(f, "metadataPrefix"))?.trim(),
        schema: textOf(child(f, "schema"))?.trim(),
        metadataNamespace: textOf(child(f, "metadataNamespace"))?.trim(),
      }));
      return buildTable(formatSchema, rows);
    });
  }

  /**
   * Every set of the repository (every page).
   *
   * @param options The per-call signal and caps.
   * @returns A table with `setSpec`, `setName`, `setDescription`.
   */
  async listSets(options: PagedReadOptions = {}): Promise<ColumnTable> {
    checkCall("listSets", options);
    return await this.#table("listSets", { ...options }, () => this.#listSets(options));
  }

  async #listSets(options: PagedReadOptions): Promise<ColumnTable> {
    const [{ oaiRequest }, { child, children, textOf }, { walkPages }] = await Promise.all([
      responseCode(),
      xmlCode(),
      walkCode(),
    ]);
    const rows: Record<string, unknown>[] = [];
    // A set named again (a token that advances over the same sets) is kept once.
    const seen = new Set<string>();
    const pages = walkPages(
      {
        label: "OAI-PMH ListSets",
        unit: "sets",
        call: "listSets()",
        eager: true,
        cursor: namedCursor<string | undefined>("resumptionToken", undefined, (t) => t ?? ""),
        fetch: (token, signal) =>
          oaiRequest(
            this.#ctx,
            token ? { verb: "ListSets", resumptionToken: token } : { verb: "ListSets" },
            signal,
          ),
        read: ({ verbNode }) => {
          const sets = children(verbNode, "set").map((set) => {
            const description = child(set, "setDescription");
            return {
              setSpec: textOf(child(set, "setSpec"))?.trim(),
              setName: textOf(child(set, "setName"))?.trim(),
              setDescription: description === undefined ? null : deepText(description),
            };
          });
          const next = (textOf(child(verbNode, "resumptionToken")) ?? "").trim();
          return {
            rows: sets.filter((set) =>
              !seen.has(String(set.setSpec)) && !!seen.add(String(set.setSpec))
            ),
            received: sets.length,
            next: next || null,
          };
        },
      },
      this.#ctx.http,
      options,
    );
    for await (const page of pages) rows.push(...page.rows);
    return buildTable(setSchema, rows);
  }

  /**
   * One record. A record OAI-PMH 2.0 does not allow (no or an unreadable
   * datestamp, no metadata on a record not deleted, more than one record) is
   * read as far as it goes with a warning, or with `strict` is a
   * `ProtocolError` (code `unknownShape`).
   *
   * @param identifier The OAI identifier.
   * @param metadataPrefix The format; default `oai_dc`.
   * @param options `strict` to refuse a record OAI-PMH 2.0 does not allow;
   *   `raw` to keep its XML as sent in `raw`.
   * @returns The record with its flattened metadata.
   * @throws {ProtocolError} `idDoesNotExist`, `cannotDisseminateFormat`,
   *   `missingRecord`; `unknownShape` under `strict`.
   */
  async getRecord(
    identifier: string,
    metadataPrefix = "oai_dc",
    options: StrictOption & { raw?: boolean } = {},
  ): Promise<OaiRecord> {
    checkCall("getRecord", options);
    const [{ oaiRequest }, { readRecord, recordProblems }] = await Promise.all([
      responseCode(),
      recordsCode(),
    ]);
    // The records are handed on as they close (with their XML when asked), as a list's are.
    const { url, items } = await oaiRequest(
      this.#ctx,
      {
        verb: "GetRecord",
        identifier,
        metadataPrefix,
      },
      undefined,
      { name: "record", raw: options.raw, read: (node, xml) => ({ node, xml }) },
    );
    const nodes = items.map((item) => item.node);
    const record = readRecord(nodes[0], metadataPrefix, items[0]?.xml);
    if (!record) {
      throw new ProtocolError(`OAI-PMH GetRecord answered without a record header: ${url}`, {
        code: "missingRecord",
      });
    }
    const problems = recordProblems(nodes, record);
    if (problems.length > 0) {
      reportUnknownShape(this.#ctx.http, {
        strict: options.strict,
        message: `OAI-PMH GetRecord ${identifier} answered a record OAI-PMH 2.0 does not allow: ${
          problems.join("; ")
        }`,
        details: JSON.stringify(nodes[0]).slice(0, 300),
      });
    }
    return record;
  }

  /**
   * Harvests every page into one table. Records repeated across pages are
   * kept once (the latest datestamp wins); `noRecordsMatch` gives an empty
   * table with the same columns.
   *
   * Columns: `identifier`, `datestamp` (Date), `setSpec` (array), `deleted`
   * (boolean); for `oai_dc` then `dc:title` ... `dc:rights` (arrays); other
   * metadata fields follow as array columns named as in {@linkcode OaiRecord}.
   *
   * @param options Format, set, window, verb and state file.
   * @returns The records as a table.
   */
  harvest(options: HarvestOptions = {}): Promise<ColumnTable> {
    return this.#table("harvest", { ...options }, () => this.#harvest(options));
  }

  async #harvest(options: HarvestOptions): Promise<ColumnTable> {
    const run = { ...await this.#resolve(options), eager: true };
    const [{ harvestPages }, { appendSpool, readSpool, spoolPath, startSpool }] = await Promise.all(
      [
        harvestCode(),
        stateCode(),
      ],
    );
    const schema = harvestSchema(run.verb, run.metadataPrefix, run.raw);
    const rows: OaiRecord[] = [];
    const index = new Map<string, number>();
    const keep = (record: OaiRecord) => {
      const at = index.get(record.identifier);
      if (at === undefined) {
        index.set(record.identifier, rows.length);
        rows.push(record);
      } else if ((record.datestamp?.getTime() ?? 0) >= (rows[at].datestamp?.getTime() ?? 0)) {
        rows[at] = record;
      }
    };
    // Several windows in flight only when the caller asked for more than one request at a
    // time: windows give another row order than the one list of a repository that lists
    // neither by datestamp nor by identifier, so the default keeps the one-list table
    // every earlier version gave. An interrupted harvest goes on the way it started. A
    // recording (or its replay) keeps one list at a time, so that any recording replays.
    const { http } = this.#ctx;
    const concurrency = Math.max(1, Math.min(http.concurrencyAsked ?? 1, http.pacing.concurrency));
    const windowed = run.saved?.inProgress ? !!run.saved.windows : concurrency > 1 && !http.caching;
    if (windowed) {
      const identify = await this.#identifyWithin(options);
      const { harvestWindows } = await windowsCode();
      (await harvestWindows(run, identify, concurrency)).forEach(keep);
      return this.#build(schema, run.verb, rows);
    }
    const spool = run.statePath ? spoolPath(run.statePath) : undefined;
    if (spool) {
      const earlier = run.saved?.inProgress ? await readSpool(spool, run.saved.delivered) : [];
      if (!run.saved?.inProgress) await startSpool(spool);
      earlier.forEach(keep);
    }
    for await (const page of harvestPages(run)) {
      if (spool) await appendSpool(spool, page.records);
      page.records.forEach(keep);
    }
    if (spool) await Deno.remove(spool).catch(() => {});
    return this.#build(schema, run.verb, rows);
  }

  /** The harvest's table, with its newest datestamp as its "as of". */
  #build(
    schema: TableSchema<OaiRecord>,
    verb: string,
    rows: OaiRecord[],
  ): ColumnTable {
    noteAsOf({ latestDatestamp: latestDatestamp(rows) });
    const builder = new TableBuilder(schema, {
      dynamic: verb === "ListRecords" ? METADATA_COLUMNS : undefined,
    });
    builder.add(rows);
    return builder.build();
  }

  /**
   * Harvests page by page, for harvests that should not be held in memory.
   * With `state`, the position is saved when the next page is asked for, so
   * a page the caller did not finish is given again on a rerun.
   *
   * @param options Format, set, window, verb and state file.
   * @returns An async iterator of pages, each with its own `provenance`
   *   (its number, records, cache keys, `responseDate` and newest datestamp;
   *   the first also counts the Identify asked for the granularity).
   */
  harvestRecords(options: HarvestOptions = {}): AsyncGenerator<HarvestPage> {
    return pagesWithProvenance(
      { service: this.endpoint, operation: "OaiPmh.harvestRecords", params: { ...options } },
      this.#harvestPages(options),
      (page, record) => {
        const newest = latestDatestamp(page.records);
        const asOf = newest ? { ...record.asOf, latestDatestamp: newest } : record.asOf;
        page.provenance = frozenProvenance({ ...record, asOf }, page.records.length);
      },
    );
  }

  async *#harvestPages(options: HarvestOptions): AsyncGenerator<HarvestPage> {
    const run = await this.#resolve(options);
    yield* (await harvestCode()).harvestPages(run);
  }

  /** Runs a table call with its provenance; the last `responseDate` and datestamp are its "as of". */
  #table(
    operation: string,
    params: Record<string, unknown>,
    run: () => Promise<ColumnTable>,
  ): Promise<ColumnTable> {
    return withProvenance(
      { service: this.endpoint, operation: `OaiPmh.${operation}`, params },
      run,
    );
  }

  /**
   * Identify for a harvest, within its signal: an aborted harvest asks
   * nothing, and one aborted while Identify is under way (shared by the
   * client's calls, so not cancelled) stops waiting for it.
   */
  #identifyWithin(options: HarvestOptions): Promise<OaiIdentify> {
    options.signal?.throwIfAborted();
    return abortable(this.identify({ strict: options.strict }), options.signal);
  }

  async #resolve(options: HarvestOptions): Promise<HarvestRun> {
    checkOptions("harvest", options, HARVEST_OPTION_RULES);
    const verb = options.verb ?? "ListRecords";
    if (verb !== "ListRecords" && verb !== "ListIdentifiers") {
      throw new TidepoolError(`Unsupported harvest verb: ${verb}`, {
        hint: "Use ListRecords or ListIdentifiers",
      });
    }
    // Checked before anything is sent, Identify included.
    if (options.from !== undefined) windowStart(options.from, "from");
    if (options.until !== undefined) dateInput(options.until, "until");
    const metadataPrefix = options.metadataPrefix ?? "oai_dc";
    const set = options.set ?? null;
    // The state file names the endpoint without its key: kept on disk, and the same harvest with another key.
    const endpoint = redact(this.endpoint);
    let saved: HarvestState | undefined;
    if (options.state) {
      const { checkIdentity, loadState } = await stateCode();
      saved = await loadState(options.state);
      if (saved) checkIdentity(options.state, saved, { endpoint, verb, metadataPrefix, set });
    }
    const { signal, maxPages, maxRows } = options;
    const base = {
      ctx: this.#ctx,
      endpoint,
      verb,
      metadataPrefix,
      set,
      statePath: options.state,
      saved,
      paging: { signal, maxPages, maxRows },
      strict: options.strict,
      raw: options.raw,
      held: saved ? (await stateCode()).heldRecords(saved) : undefined,
    };
    if (saved?.inProgress) return { ...base, from: saved.from, until: saved.until };
    const needsGranularity =
      [options.from, options.until].some((v) =>
        v !== undefined && !(typeof v === "string" && isDay(v))
      ) || !!saved?.highWater;
    const granularity = needsGranularity ? (await this.#identifyWithin(options)).granularity : DAY;
    let from = toDatestamp(options.from, granularity, "from");
    let until = toDatestamp(options.until, granularity, "until");
    if (saved?.highWater) {
      const incremental = nextFrom(saved.highWater, granularity);
      if (!from || (parseUtc(incremental)?.getTime() ?? 0) > (parseUtc(from)?.getTime() ?? 0)) {
        from = incremental;
      }
    }
    if (from && until && isDay(from) !== isDay(until) && granularity !== DAY) {
      if (isDay(from)) from = `${from}T00:00:00Z`;
      else until = `${until}T23:59:59Z`;
    }
    return { ...base, from: from ?? null, until: until ?? null };
  }
}

/** The newest datestamp of the records, as ISO 8601; undefined when none has one. */
function latestDatestamp(records: readonly OaiRecord[]): string | undefined {
  let latest = -Infinity;
  for (const record of records) {
    const time = record.datestamp?.getTime();
    if (time !== undefined && time > latest) latest = time;
  }
  return Number.isFinite(latest) ? new Date(latest).toISOString() : undefined;
}

function toDatestamp(
  value: string | Date | undefined,
  granularity: string,
  name: string,
): string | undefined {
  if (value === undefined) return undefined;
  const date = dateInput(value, name);
  // A day stays a day: the repository reads it at day granularity.
  if (typeof value === "string" && isIsoDay(value)) return value.trim();
  return formatDatestamp(date, granularity);
}

function deepText(node: unknown): string {
  if (node === null || node === undefined) return "";
  if (typeof node !== "object") return String(node);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith("@_")) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = deepText(item).trim();
      if (text) parts.push(text);
    }
  }
  return parts.join(" ");
}
