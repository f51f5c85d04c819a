/**
 * The contract between the paging engine and an adapter: the adapter
 * declares its cursor kind, how to fetch one page and how to read it; the
 * engine does the rest.
 *
 * @module
 */

import type { OptionRules } from "../options/check_options.ts";

/** What a paged read reports as it goes, and what the caller can inspect after. */
export interface WalkState {
  /** Pages read so far (restarts included). */
  pages: number;
  /** Rows handed on (after the adapter's filtering and de-duplication). */
  rows: number;
  /** Rows that arrived, before filtering. */
  received: number;
  /** The total the service reported, when it did (the first report is kept). */
  total?: number;
  /** Times the walk started again after an error it could recover from. */
  restarts: number;
}

/** What an adapter reads from one page. */
export interface PageRead<R, C> {
  /** The rows to hand on. */
  rows: readonly R[];
  /** How many rows arrived before filtering; default the number of rows. */
  received?: number;
  /** The total the service reported, if this page says it. */
  total?: number;
  /** The next cursor the page names (token, link, value); null: this is the last page. */
  next?: C | null;
  /** The adapter knows the walk ends here (an empty page, a stop it recognises). */
  done?: boolean;
}

/**
 * A cursor kind: how the walk starts, how one cursor is told from another,
 * and how the next one follows.
 */
export interface CursorKind<C> {
  /** The kind's name, as shown in errors: `offset`, `page number`, `token`, `value`, `link`. */
  readonly name: string;
  /** The first cursor. */
  readonly first: C;
  /** A string that identifies a cursor; a key seen twice is a cycle. */
  key(cursor: C): string;
  /** The cursor after this page, or null at the end. */
  advance(cursor: C, page: PageRead<unknown, C>, state: WalkState): C | null;
  /**
   * The cursor after `cursor`, known before its page arrives (offset and page
   * number with a known total), for reading ahead; null when it cannot be told.
   */
  predict?(cursor: C, state: WalkState): C | null;
}

/** One paged read, as an adapter declares it. */
export interface Pager<C, P, R> {
  /** What is read, as shown in progress and messages, e.g. `archive resources`. */
  label: string;
  /** The unit of progress; default `rows`. */
  unit?: string;
  /** The call whose options raise a cap, e.g. `archive.resources()`. */
  call?: string;
  /** The cursor kind. */
  cursor: CursorKind<C>;
  /** Sends one page request; the signal cancels it. */
  fetch(cursor: C, signal: AbortSignal): Promise<P>;
  /**
   * What identifies a page's content (for example its row ids joined),
   * taken before the page is read: the same non-empty fingerprint twice
   * means the service repeated a page, and the repeat is not read.
   */
  fingerprint?(page: P): string;
  /** Reads one page (called once per page, in order). */
  read(page: P, cursor: C, state: WalkState): PageRead<R, C>;
  /**
   * After a failed page: whether the walk can start again (for example a
   * window restarted after an expired token). Asked only below the restart limit.
   */
  restartOn?(error: unknown, cursor: C): boolean;
  /** The cursor to start again from, after any bookkeeping (a warning, a saved state). */
  restart?(cursor: C, state: WalkState): C | Promise<C>;
  /** Restarts in a row without a new row before giving up; default 5. */
  maxRestarts?: number;
  /**
   * Pages in a row that bring no new row while the cursor still advances
   * (a token handed out forever over the same records) before the walk
   * fails with a `PagingError` (`noNewRows`); default 50. After a restart
   * the pages read before it are allowed on top, since a restarted window
   * repeats what it had delivered.
   */
  maxEmptyPages?: number;
  /** A repeated page: `error` (default) throws, `stop` ends the walk (a shortfall is then warned). */
  onRepeat?: "error" | "stop";
  /** Pages requested ahead of the one read; default 1. */
  readAhead?: number;
  /**
   * Request the page a page names at once, before handing the page on
   * (the adapter itself consumes the walk, building a table). Default
   * false: it goes out after the caller's turn, so a caller that stops
   * at once sends nothing more.
   */
  eager?: boolean;
  /**
   * Request the page a page names only when the caller asks for it, so a
   * caller that holds the walk between pages (a list waiting its turn)
   * holds no request at the server. Default false.
   */
  onDemand?: boolean;
  /** What progress counts and the shortfall check compares: kept `rows` (default) or `received`. */
  count?: "rows" | "received";
  /**
   * The shortfall warning, or undefined for none. Default: a warning when
   * fewer rows arrived than the total the service reported.
   */
  shortfall?(state: WalkState, stopped: string | undefined): string | undefined;
  /** The note progress ends with; default the number of pages. */
  summary?(state: WalkState): string;
}

/** The rules of {@linkcode PagedReadOptions}, which every paged read's own rules extend. */
export const PAGED_READ_RULES: OptionRules = {
  signal: "signal",
  maxPages: "integer",
  maxRows: "integer",
};

/** Per-call options of every paged read. */
export interface PagedReadOptions {
  /** Cancels the read: the request in flight and those read ahead. */
  signal?: AbortSignal;
  /** Most pages read before the read fails; default 100,000. */
  maxPages?: number;
  /** Most rows read before the read fails; default 10,000,000. */
  maxRows?: number;
}

/** One page as the engine hands it on. */
export interface WalkPage<R> {
  /** The rows of the page. */
  rows: readonly R[];
  /** 1-based page number within the walk. */
  page: number;
  /** Whether this is the last page. */
  last: boolean;
  /** The walk's counts after this page. */
  state: Readonly<WalkState>;
}
