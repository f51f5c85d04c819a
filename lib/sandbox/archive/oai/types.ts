/**
 * The small interface the sandbox OAI-PMH provider and ResourceSync source
 * read their records from, so that any seeded store (the archive sandbox's
 * resources, or the seeded records of this folder) can be served.
 *
 * @module
 */

/** One record as the provider serves it. */
export interface OaiSandboxRecord {
  /** The OAI identifier, e.g. `oai:archive.example:acme/letters/r-00001`. */
  identifier: string;
  /** The resource slug, used in linked-data URIs (`/{account}/{db}/data/{slug}`). */
  slug: string;
  /** Last update, ISO 8601 UTC with seconds (`2024-05-01T10:00:00Z`). */
  datestamp: string;
  /** Creation time, ISO 8601 UTC; defaults to the datestamp. */
  created?: string;
  /** Sets the record belongs to (the resource type). */
  setSpec: string[];
  /** Whether the record was deleted (served with `status="deleted"` and no metadata). */
  deleted?: boolean;
  /** Dublin Core elements by local name (`title`, `creator`, ...), each repeatable. */
  dc: Record<string, string[]>;
  /**
   * `jps` fields by qualified name (`schema:name`); a dotted name
   * (`jps:sourceInfo.schema:provider`) is a field of a nested description.
   * Values that start with `http` are served as `rdf:resource` links.
   */
  jps?: Record<string, string[]>;
}

/** What Identify says about the repository. */
export interface OaiRepositoryInfo {
  /** Human name of the repository. */
  repositoryName: string;
  /** Administrator addresses. */
  adminEmail: string[];
  /** Datestamp granularity; default seconds. */
  granularity?: "YYYY-MM-DD" | "YYYY-MM-DDThh:mm:ssZ";
  /** Deleted-record support; default `persistent`. */
  deletedRecord?: "no" | "transient" | "persistent";
  /** Set names by setSpec; sets without a name here are named after their spec. */
  setNames?: Record<string, string>;
  /** The repository identifier used in `oai-identifier` descriptions. */
  repositoryIdentifier?: string;
}

/** Fault switches of the provider; tests set and clear them while it runs. */
export interface OaiFaults {
  /** Answer 503 with this `Retry-After` (seconds or an HTTP date) for list page `page` (0 is the first), `times` times (default 1). */
  unavailable?: { page: number; retryAfter: string; times?: number };
  /** Answer `badResumptionToken` once when the token for list page `n` (1 is the second page) is used. */
  expireTokenOnPage?: number;
  /** End multi-page lists with a self-closing `<resumptionToken/>` instead of an empty element pair. */
  selfClosingLastToken?: boolean;
  /** Repeat the last record of each page at the start of the next page. */
  repeatAcrossPages?: boolean;
  /** Answer as a repository without sets (`noSetHierarchy` for ListSets and `set`). */
  noSets?: boolean;
  /**
   * Send protocol errors (`noRecordsMatch`, `idDoesNotExist`, `badArgument`, ...)
   * with this HTTP status instead of 200, their OAI-PMH body unchanged: Zenodo
   * sends 422.
   */
  errorStatus?: number;
  /**
   * Hand out a fresh resumption token forever from list page `n` (1 is the
   * second page) on, each page repeating that page's records: a token that
   * advances while the records do not.
   */
  endlessTokensFromPage?: number;
  /**
   * Resumption tokens without `completeListSize` and `cursor` (both optional
   * in OAI-PMH 2.0): a list that does not say how long it is.
   */
  noListSize?: boolean;
  /**
   * A `completeListSize` made up on every page (anything from one to ten
   * times the list's true size, from a fixed sequence): a repository whose
   * sizes cannot be trusted.
   */
  madeUpListSize?: boolean;
}
