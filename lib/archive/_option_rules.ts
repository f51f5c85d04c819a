/**
 * The options each public archive call takes (the platform's API, OAI-PMH
 * and ResourceSync), as checked at its door by `checkOptions`: what is not
 * listed is refused with a did-you-mean, and what is required must be given,
 * before any request. Values read further with their own messages (harvest
 * dates, search filters) are "any" or "object" here.
 *
 * The calls Archive shares with OaiPmh and ResourceSync go by their bare
 * names (`identify`, `mirror`), which both spell the same.
 *
 * @module
 */

import { callChecker, type CallRules, type OptionRules } from "../options/check_options.ts";
import { POLL_RULES } from "../http/options.ts";
import { TidepoolError } from "../errors/errors.ts";
import { PAGED_READ_RULES } from "../paging/types.ts";
import { SPARQL_PAGES_RULES, SPARQL_QUERY_RULES } from "../sparql/option_rules.ts";

const SEARCH_TERMS: OptionRules = {
  q: "string",
  filter: "object",
  sort: "string",
  pageSize: "integer",
  expandEntities: "boolean",
  auth: "boolean",
  signal: "signal",
};

const SPARQL: OptionRules = { ...SPARQL_QUERY_RULES, db: "string", service: "string" };

const IIIF_IMAGE: OptionRules = {
  region: "string",
  size: "string",
  rotation: ["number", "string"],
  quality: ["default", "color", "gray", "bitonal"],
  format: ["jpg", "png", "webp", "tif", "gif", "jp2", "pdf"],
};

const LIST: OptionRules = { ...PAGED_READ_RULES, pages: "integer" };

/** `derivative` of an upload: "ptif", or null for none. */
function derivative(value: unknown, name: string): unknown {
  if (value === "ptif" || value === null) return value;
  throw new TidepoolError(
    `Invalid option ${name} of Archive.upload: expected "ptif" or null, got ${String(value)}`,
    { hint: 'Ask for "ptif" (a tiled image for IIIF) or null (keep the file only)' },
  );
}

const STRICT: CallRules = { rules: { strict: "boolean" }, required: [] };

/** The rules of each call, by the name its errors give it. */
const ARCHIVE_CALL_RULES = {
  "Archive.search": {
    rules: {
      ...SEARCH_TERMS,
      facet: ["string", "strings"],
      page: "integer",
      offset: "integer",
      limit: "integer",
    },
    required: [],
  },
  "Archive.searchAll": {
    rules: { ...SEARCH_TERMS, ...PAGED_READ_RULES, paging: ["page", "offset"] },
    required: [],
  },
  "Archive.searchPages": {
    rules: { ...SEARCH_TERMS, ...PAGED_READ_RULES, paging: ["page", "offset"] },
    required: [],
  },
  "Archive.databases": { rules: { scope: ["public", "mine", "all"] }, required: [] },
  "Archive.rebuildGraph": {
    rules: { db: "string", service: "string", signal: "signal" },
    required: [],
  },
  "Archive.linkedDataAt": { rules: { format: ["jsonld", "ttl"], signal: "signal" }, required: [] },
  "Archive.resources": {
    rules: {
      ...PAGED_READ_RULES,
      type: "string",
      parent: "string",
      pageSize: "integer",
      auth: "boolean",
    },
    required: [],
  },
  "Archive.linkedDataTable": STRICT,
  "Archive.sparql": { rules: SPARQL, required: [] },
  "Archive.sparqlAll": {
    rules: { ...SPARQL, ...SPARQL_PAGES_RULES },
    required: [],
  },
  "Archive.sparqlPages": {
    rules: { ...SPARQL, ...SPARQL_PAGES_RULES },
    required: [],
  },
  "Archive.iiifImage": {
    rules: { ...IIIF_IMAGE, path: "string", signal: "signal" },
    required: [],
  },
  "Archive.iiifImageUrl": { rules: IIIF_IMAGE, required: [] },
  "Archive.issueKey": { rules: { scopes: "strings" }, required: [] },
  "Archive.upload": {
    rules: {
      ...POLL_RULES,
      derivative,
      isPublic: "boolean",
      contentType: "string",
      stallMs: "number",
      wait: "boolean",
    },
    required: [],
  },
  "Archive.uploadStatus": { rules: { signal: "signal" }, required: [] },
  "Archive.waitForUpload": { rules: POLL_RULES, required: [] },
  readSparqlResults: {
    rules: { format: "string", lang: "boolean", datatype: "boolean" },
    required: ["format"],
  },
  identify: STRICT,
  listMetadataFormats: { rules: { identifier: "string" }, required: [] },
  listSets: { rules: PAGED_READ_RULES, required: [] },
  getRecord: { rules: { strict: "boolean", raw: "boolean" }, required: [] },
  resourceList: { rules: LIST, required: [] },
  changeList: { rules: { ...LIST, from: "any" }, required: [] },
  changeEntries: { rules: LIST, required: [] },
  mirror: {
    rules: {
      state: "string",
      relistAfterDays: "number",
      dir: "string",
      maxBytes: "integer",
      signal: "signal",
    },
    required: ["state"],
  },
} as const satisfies Record<string, CallRules>;

/** Checks the options of one archive call at its door, by the name its errors give it. */
export const checkCall = callChecker(ARCHIVE_CALL_RULES);

/** The options of a harvest; dates and the verb are checked where they are read, with their own messages. */
export const HARVEST_OPTION_RULES: OptionRules = {
  ...PAGED_READ_RULES,
  metadataPrefix: "string",
  set: "string",
  from: "any",
  until: "any",
  verb: "any",
  state: "string",
  strict: "boolean",
  raw: "boolean",
};

/** The options of `new OaiPmh` beside the client's own. */
export const OAI_PMH_RULES: OptionRules = { allowOtherHosts: "boolean" };

/** The options of `new ResourceSync` beside the client's own. */
export const RESOURCE_SYNC_RULES: OptionRules = {
  site: "string",
  capabilityList: "string",
  allowOtherHosts: "boolean",
  pageSize: "integer",
};
