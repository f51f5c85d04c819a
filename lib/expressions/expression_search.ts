/**
 * The expression search client: search pages, every page, single records,
 * works, stats and analytics, all as tidy Arquero tables.
 *
 * @module
 */

import { type ColumnTable, escape } from "arquero";
import { HttpClient } from "../http/client.ts";
import { CLIENT_OPTION_RULES } from "../http/options.ts";
import { checkOptions, type OptionRules } from "../options/check_options.ts";
import { PAGED_READ_RULES } from "../paging/types.ts";
import { pagesWithProvenance, withProvenance } from "../table/with_provenance.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { buildTable } from "../table/mod.ts";
import type { CollectOptions } from "./_collect_pages.ts";
import { longCounts, longFromList } from "./_reshape.ts";
import { filterQuery, requestedIntensities, searchQuery, sortQuery } from "./_search_query.ts";
import {
  BODY_PART_COUNT_COLUMNS,
  BOOK_COLUMNS,
  BOOK_EMOTION_COLUMNS,
  EMOTION_BODY_PART_COLUMNS,
  EMOTION_COUNT_COLUMNS,
  EXPRESSION_COLUMNS,
  FACET_COLUMNS,
  VALENCE_COUNT_COLUMNS,
} from "./columns.ts";
import type {
  Expression,
  ExpressionAnalytics,
  ExpressionFacets,
  ExpressionSearchOptions,
  ExpressionStats,
  PagingOptions,
  SearchAllOptions,
  SearchFilters,
  SearchParameters,
  SearchResult,
  WireExpression,
} from "./types.ts";
import { checkVocabulary, KNOWN_VOCABULARY, type Vocabulary } from "./vocabulary.ts";

// The page walk loads with the first search, so that importing tidepool stays
// quick (bench/import_bench.ts).
const pagesCode = () => import("./_collect_pages.ts");

/**
 * Polite default pacing: the spec asks clients to leave intervals between
 * many requests, so at most one request is in flight and request starts are
 * at least 250 ms apart (about 4 requests a second). Override with
 * `minIntervalMs` and `concurrency` in the options.
 */
export const EXPRESSION_SEARCH_PACING = { minIntervalMs: 250, concurrency: 1 } as const;

const FACET_NAMES = {
  emotions: "emotions",
  bodyParts: "body_parts",
  valences: "valences",
  intensities: "intensities",
  genders: "genders",
} as const;

/**
 * A client of the expression search service.
 *
 * @example Searching and reading every page
 * ```ts
 * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
 * await using sandbox = startExpressionSandbox({ size: 500 });
 * const ex = new ExpressionSearch(sandbox.url, { progress: false });
 * const page = await ex.search({ emotion: ["喜", "驚"], bodyPart: "目", limit: 50 });
 * console.log(page.total, page.hits.numRows(), page.facets.emotions.objects());
 * const [hit] = (await ex.search({ limit: 1 })).hits.objects() as { id: string; pid: string }[];
 * const all = await ex.searchAll({ pid: hit.pid }); // every page, paced
 * console.log(all.numRows());
 * ```
 */
export class ExpressionSearch {
  /** The HTTP client, for its pacing and progress. */
  readonly http: HttpClient;
  readonly #pageSize?: number;
  readonly #pageSizes = new Map<string, number>();
  #vocabulary?: Promise<Vocabulary>;

  /**
   * Creates a client of the service, by default one request at a time, 250 ms apart.
   *
   * @param url The service's base address.
   * @param options The shared client options, and `pageSize` for the paged reads.
   */
  constructor(url: string, options: ExpressionSearchOptions = {}) {
    const { pageSize, ...clientOptions } = checkOptions("new ExpressionSearch", options, {
      ...CLIENT_OPTION_RULES,
      pageSize: "integer",
    });
    this.http = new HttpClient(url, { ...clientOptions, defaults: EXPRESSION_SEARCH_PACING });
    this.#pageSize = pageSize;
  }

  /**
   * One page of a search, with facet counts over every match.
   *
   * @param parameters Filters (lists are sent comma-joined), paging and sort.
   * @returns The hits as a table, the total and the facets.
   *
   * @example Joy or surprise shown by the eyes, in works by one author's characters
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const { hits, total, facets } = await ex.search({ emotion: ["喜", "驚"], bodyPart: "目" });
   * console.log(total, hits.numRows(), facets.emotions.numRows());
   * ```
   */
  async search(parameters: SearchParameters = {}): Promise<SearchResult> {
    checkOptions("ExpressionSearch.search", parameters, SEARCH_RULES);
    return await this.#table(
      "search",
      { ...parameters },
      () => this.#search(parameters),
      (result) => [result.hits, ...Object.values(result.facets)],
    );
  }

  async #search(parameters: SearchParameters): Promise<SearchResult> {
    const query = searchQuery(parameters);
    if (requestedIntensities(parameters)) {
      throw new TidepoolError(
        "Cannot search one page by intensity: the service has no intensity filter",
        {
          hint:
            "Use searchAll({ intensity }), which keeps the matching rows itself, or sort by intensity",
        },
      );
    }
    await this.#checkVocabulary(parameters);
    const response = await this.http.request({ path: "/api/expressions", query });
    const page = (await pagesCode()).readPage(response);
    const facets = (page.body.facets ?? {}) as Record<string, unknown>;
    const tables = {} as Record<keyof ExpressionFacets, ColumnTable>;
    for (const [name, wire] of Object.entries(FACET_NAMES)) {
      const list = facets[wire] ?? [];
      if (!Array.isArray(list)) {
        throw new ProtocolError(`Expression search sent facets.${wire} in an unexpected shape`, {
          details: JSON.stringify(list).slice(0, 200),
          hint: "The service may have changed its interface; report it with the URL",
        });
      }
      tables[name as keyof ExpressionFacets] = buildTable(FACET_COLUMNS, list);
    }
    return {
      hits: buildTable(EXPRESSION_COLUMNS, page.hits),
      total: page.total,
      facets: tables,
    };
  }

  /**
   * Every match of a search as one table: the largest page size the service
   * accepts, paced, with progress, de-duplicated by `id` in the order the
   * pages arrived, stopping exactly at `total` (or `maxRows`). A warning says
   * so when the service delivers fewer rows than it announced.
   *
   * @param filters The search filters.
   * @param options `maxRows`, `pageSize`, `sort` and `order`.
   * @returns A table with the columns of `EXPRESSION_COLUMNS`.
   *
   * @example Every expression of one work
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const [hit] = (await ex.search({ limit: 1 })).hits.objects() as { id: string; pid: string }[];
   * const all = await ex.searchAll({ pid: hit.pid }, { maxRows: 5000 });
   * console.log(all.numRows());
   * ```
   */
  async searchAll(
    filters: SearchFilters = {},
    options: SearchAllOptions = {},
  ): Promise<ColumnTable> {
    checkOptions("the ExpressionSearch.searchAll filters", filters, ALL_FILTER_RULES);
    checkOptions("ExpressionSearch.searchAll", options, SEARCH_ALL_RULES);
    return await this.#table(
      "searchAll",
      { ...filters, ...options },
      () => this.#searchAll(filters, options),
    );
  }

  async #searchAll(filters: SearchFilters, options: SearchAllOptions): Promise<ColumnTable> {
    const read = this.#allPages(filters, options);
    await this.#checkVocabulary(filters);
    const result = await (await pagesCode()).collectPages(this.http, read);
    const wanted = requestedIntensities(filters);
    // Not a service filter (the spec has none): every page is read and the rows kept here.
    return wanted
      ? result.table.filter(
        escape((d: { intensity: string | null }) => wanted.has(d.intensity ?? "")),
      )
        .reify()
      : result.table;
  }

  /**
   * The pages of {@linkcode ExpressionSearch.searchAll} one at a time, each a
   * table of the same columns (intensity kept here as there), for reads that
   * should not be held in memory: hand them to `writeDataset` for Parquet.
   *
   * @param filters The search filters.
   * @param options `maxRows`, `pageSize`, `sort` and `order`.
   * @returns The pages, each with its own provenance (`page`, its rows and cache keys).
   *
   * @example Every expression of one work into Parquet
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * import { writeDataset } from "../dataset/mod.ts";
   * const [hit] = (await ex.search({ limit: 1 })).hits.objects() as { id: string; pid: string }[];
   * const dir = await Deno.makeTempDir();
   * const summary = await writeDataset(ex.searchPages({ pid: hit.pid }), `${dir}/expressions`, {});
   * console.log(summary);
   * ```
   */
  searchPages(
    filters: SearchFilters = {},
    options: SearchAllOptions = {},
  ): AsyncGenerator<ColumnTable> {
    checkOptions("the ExpressionSearch.searchPages filters", filters, ALL_FILTER_RULES);
    checkOptions("ExpressionSearch.searchPages", options, SEARCH_ALL_RULES);
    return pagesWithProvenance(
      {
        service: this.http.baseUrl,
        operation: "ExpressionSearch.searchPages",
        params: { ...filters, ...options },
      },
      this.#pages(filters, options),
    );
  }

  /** The pages of {@linkcode ExpressionSearch.searchPages}, without their provenance. */
  async *#pages(filters: SearchFilters, options: SearchAllOptions): AsyncGenerator<ColumnTable> {
    const read = this.#allPages(filters, options);
    await this.#checkVocabulary(filters);
    const wanted = requestedIntensities(filters);
    const { expressionPages } = await pagesCode();
    for await (const hits of expressionPages(this.http, read)) {
      const page = buildTable(EXPRESSION_COLUMNS, hits);
      yield wanted
        ? page.filter(escape((d: { intensity: string | null }) => wanted.has(d.intensity ?? "")))
          .reify()
        : page;
    }
  }

  /** The paged read of every match of a search. */
  #allPages(filters: SearchFilters, options: SearchAllOptions): CollectOptions {
    const paging = filters as SearchParameters;
    if (paging.limit !== undefined || paging.offset !== undefined) {
      throw new TidepoolError("Cannot read every page: limit and offset are set by searchAll", {
        hint: "Use search() for one page, or pass maxRows and pageSize in the second argument",
      });
    }
    return {
      path: "/api/expressions",
      query: { ...filterQuery(filters), ...sortQuery(options) },
      label: "searchAll",
      defaultSize: 20,
      pageSize: options.pageSize ?? this.#pageSize,
      maxRows: options.maxRows,
      signal: options.signal,
      maxPages: options.maxPages,
      memo: this.#pageSizes,
    };
  }

  /**
   * One expression by its index document id.
   *
   * @param id The id, as in the `id` column.
   * @returns The expression with camelCase fields; absent fields are null.
   * @throws {NotFoundError} When the service does not know the id.
   *
   * @example Reading one expression
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const [hit] = (await ex.search({ limit: 1 })).hits.objects() as { id: string; pid: string }[];
   * const expression = await ex.expression(hit.id);
   * console.log(expression.surface, expression.bodyPart);
   * ```
   */
  async expression(id: string): Promise<Expression> {
    if (typeof id !== "string" || id === "") {
      throw new TidepoolError("Cannot read the expression: the id is empty", {
        hint: "Pass an id from the id column of a search",
      });
    }
    const response = await this.http.request({
      path: `/api/expressions/${encodeURIComponent(id)}`,
    });
    const wire = response.json<WireExpression>();
    if (!wire || typeof wire !== "object" || Array.isArray(wire)) {
      throw new ProtocolError(`Expression search answered without an expression: ${response.url}`, {
        details: response.text().slice(0, 200),
        hint: "Check that the URL points at the expression search service",
      });
    }
    const record: Record<string, unknown> = {};
    EXPRESSION_COLUMNS.names.forEach((
      name,
      i,
    ) => (record[name] = EXPRESSION_COLUMNS.readers[i](wire)));
    return record as unknown as Expression;
  }

  /**
   * Every expression of one work, in page order (the service's order), every page.
   *
   * @param pid The work identifier.
   * @param options `maxRows` and `pageSize`.
   * @returns A table with the columns of `EXPRESSION_COLUMNS`.
   *
   * @example The expressions of one work
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const [hit] = (await ex.search({ limit: 1 })).hits.objects() as { id: string; pid: string }[];
   * const rows = await ex.byBook(hit.pid);
   * console.log(rows.numRows());
   * ```
   */
  async byBook(pid: string, options: PagingOptions = {}): Promise<ColumnTable> {
    checkOptions("ExpressionSearch.byBook", options, PAGING_RULES);
    return await this.#table("byBook", { pid, ...options }, () => this.#byBook(pid, options));
  }

  async #byBook(pid: string, options: PagingOptions): Promise<ColumnTable> {
    if (typeof pid !== "string" || pid === "") {
      throw new TidepoolError("Cannot read the expressions of a work: the pid is empty", {
        hint: "Pass a pid from the books() table",
      });
    }
    const result = await (await pagesCode()).collectPages(this.http, {
      path: "/api/expressions/by-book",
      query: { pid },
      label: "byBook",
      defaultSize: 10,
      pageSize: options.pageSize ?? this.#pageSize,
      maxRows: options.maxRows,
      signal: options.signal,
      maxPages: options.maxPages,
      memo: this.#pageSizes,
    });
    return result.table;
  }

  /**
   * The registered works with their expression counts.
   *
   * @returns A table: `pid, title, author, year, genre, ndc, expressionCount`.
   *
   * @example Works by count
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * import * as aq from "arquero";
   * const books = await ex.books();
   * console.log(books.orderby(aq.desc("expressionCount")).objects({ limit: 3 }));
   * ```
   */
  books(): Promise<ColumnTable> {
    return this.#table("books", {}, () => this.#bookTable());
  }

  async #bookTable(): Promise<ColumnTable> {
    return buildTable(BOOK_COLUMNS, await this.#books());
  }

  /**
   * The emotion counts of every work, in long form.
   *
   * @returns A table: `pid, title, emotion, count, total` (`total`: the work's expressions).
   *
   * @example Emotions per work
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const long = await ex.bookEmotions();
   * console.log(long.columnNames());
   * ```
   */
  bookEmotions(): Promise<ColumnTable> {
    return this.#table("bookEmotions", {}, () => this.#bookEmotions());
  }

  async #bookEmotions(): Promise<ColumnTable> {
    const rows = longFromList(
      await this.#books(),
      "books[].emotions",
      (book) => book.emotions,
      (book) => ({ pid: book.pid, title: book.title, total: book.expression_count }),
      "emotion",
    );
    return buildTable(BOOK_EMOTION_COLUMNS, rows);
  }

  /**
   * Counts over the whole index.
   *
   * @returns Tables `emotion, count`, `bodyPart, count`, `valence, count` (largest first) and the total.
   *
   * @example The total and the commonest emotion
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const { emotions, total } = await ex.stats();
   * console.log(total, emotions.numRows());
   * ```
   */
  stats(): Promise<ExpressionStats> {
    return this.#table(
      "stats",
      {},
      () => this.#stats(),
      (stats) => [stats.emotions, stats.bodyParts, stats.valences],
    );
  }

  async #stats(): Promise<ExpressionStats> {
    const body = await this.#object("/api/stats");
    // `total` is `{value}` in the spec (an Elasticsearch total); a bare number is read too.
    const raw = body.total;
    const value = typeof raw === "object" && raw !== null
      ? (raw as { value?: unknown }).value
      : raw;
    if (typeof value !== "number") {
      throw new ProtocolError("Expression search sent stats without a total", {
        details: JSON.stringify(body.total),
        hint: "The service may have changed its interface; report it with the URL",
      });
    }
    return {
      emotions: buildTable(EMOTION_COUNT_COLUMNS, longCounts(body.emotions, "emotion", "emotions")),
      bodyParts: buildTable(
        BODY_PART_COUNT_COLUMNS,
        longCounts(body.bodyParts, "bodyPart", "bodyParts"),
      ),
      valences: buildTable(VALENCE_COUNT_COLUMNS, longCounts(body.valences, "valence", "valences")),
      total: value,
    };
  }

  /**
   * The visualisation data of the service, reshaped into long-form tables.
   *
   * @returns `bookEmotions`, `emotionBodyPart`, `valence`, `emotion` and `bodyPart` tables.
   *
   * @example A heatmap's data
   * ```ts
   * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
   * await using sandbox = startExpressionSandbox({ size: 500 });
   * const ex = new ExpressionSearch(sandbox.url, { progress: false });
   * const { emotionBodyPart } = await ex.analytics();
   * console.log(emotionBodyPart.numRows());
   * ```
   */
  analytics(): Promise<ExpressionAnalytics> {
    return this.#table("analytics", {}, () => this.#analytics(), (tables) => Object.values(tables));
  }

  async #analytics(): Promise<ExpressionAnalytics> {
    const body = await this.#object("/api/analytics");
    const bookEmotions = longFromList(
      body.booksEmotions,
      "booksEmotions",
      (book) => book.emotions,
      // The per-row total is the work's own count: kept, so shares need no second call.
      (book) => ({ pid: book.pid, title: book.title, total: book.total }),
      "emotion",
    );
    const matrix = longFromList(
      body.emotionBodypartMatrix,
      "emotionBodypartMatrix",
      (row) => row.bodyParts,
      (row) => ({ emotion: row.emotion, total: row.total }),
      "bodyPart",
    );
    return {
      bookEmotions: buildTable(BOOK_EMOTION_COLUMNS, bookEmotions),
      emotionBodyPart: buildTable(EMOTION_BODY_PART_COLUMNS, matrix),
      valence: buildTable(
        VALENCE_COUNT_COLUMNS,
        longCounts(body.valenceDistribution, "valence", "valenceDistribution"),
      ),
      emotion: buildTable(
        EMOTION_COUNT_COLUMNS,
        longCounts(body.emotionDistribution, "emotion", "emotionDistribution"),
      ),
      bodyPart: buildTable(
        BODY_PART_COUNT_COLUMNS,
        longCounts(body.bodyPartDistribution, "bodyPart", "bodyPartDistribution"),
      ),
    };
  }

  /** Runs a table call with its provenance (the service states no "as of" of its own). */
  #table<T>(
    operation: string,
    params: Record<string, unknown>,
    run: () => Promise<T>,
    tablesOf?: (value: T) => readonly ColumnTable[],
  ): Promise<T> {
    return withProvenance(
      { service: this.http.baseUrl, operation: `ExpressionSearch.${operation}`, params },
      run,
      tablesOf,
    );
  }

  async #books(): Promise<Record<string, unknown>[]> {
    const response = await this.http.request({ path: "/api/books" });
    const body = response.json<unknown>();
    if (!Array.isArray(body)) {
      throw new ProtocolError(
        `Expression search answered /api/books without a list: ${response.url}`,
        {
          details: response.text().slice(0, 200),
          hint: "Check that the URL points at the expression search service",
        },
      );
    }
    return body as Record<string, unknown>[];
  }

  async #object(path: string): Promise<Record<string, unknown>> {
    const response = await this.http.request({ path });
    const body = response.json<unknown>();
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      throw new ProtocolError(
        `Expression search answered ${path} without an object: ${response.url}`,
        {
          details: response.text().slice(0, 200),
          hint: "Check that the URL points at the expression search service",
        },
      );
    }
    return body as Record<string, unknown>;
  }

  /**
   * Emotion and body part values are checked against the lists the service
   * publishes (`/api/stats`, read once per client), since an unknown value
   * answers an empty table, not an error. Without such lists the known ones
   * decide.
   */
  async #checkVocabulary(filters: SearchFilters): Promise<void> {
    if (filters.emotion === undefined && filters.bodyPart === undefined) return;
    this.#vocabulary ??= this.stats().then(
      ({ emotions, bodyParts }) => ({
        emotions: listed(emotions, "emotion", KNOWN_VOCABULARY.emotions),
        bodyParts: listed(bodyParts, "bodyPart", KNOWN_VOCABULARY.bodyParts),
      }),
      () => KNOWN_VOCABULARY,
    );
    checkVocabulary(filters, await this.#vocabulary);
  }
}

/** The values of a stats table, or the known ones when it lists none. */
function listed(table: ColumnTable, column: string, known: readonly string[]): readonly string[] {
  const values = (table.array(column) as unknown[]).filter((v): v is string =>
    typeof v === "string"
  );
  return values.length > 0 ? values : known;
}

/** The filter keys of a search; each value is checked where it is read, against the service's vocabulary. */
const FILTER_RULES: OptionRules = {
  keyword: "any",
  emotion: "any",
  bodyPart: "any",
  valence: "any",
  intensity: "any",
  gender: "any",
  pid: "any",
};

/** Sort and order, checked where they are read against the fields the service sorts by. */
const SORT_RULES: OptionRules = { sort: "any", order: "any" };

/** One page's parameters: the filters, where the page starts and its order. */
const SEARCH_RULES: OptionRules = { ...FILTER_RULES, ...SORT_RULES, limit: "any", offset: "any" };

/** A whole read sets limit and offset itself: given among its filters, they are refused. */
function setByTheRead(_value: unknown, name: string): never {
  throw new TidepoolError(
    `Cannot read every page: limit and offset are set by searchAll (${name} given)`,
    {
      hint: "Use search() for one page, or pass maxRows and pageSize in the second argument",
    },
  );
}

const ALL_FILTER_RULES: OptionRules = {
  ...FILTER_RULES,
  limit: setByTheRead,
  offset: setByTheRead,
};

const PAGING_RULES: OptionRules = { ...PAGED_READ_RULES, pageSize: "integer" };

const SEARCH_ALL_RULES: OptionRules = { ...PAGING_RULES, ...SORT_RULES };
