/**
 * A sandbox OAI-PMH 2.0 provider as a request handler, over any list of
 * records: all six verbs, `oai_dc` and `jps`, sets, `from`/`until`,
 * resumption tokens with `completeListSize` and `cursor`, every protocol
 * error with HTTP 200 (or the `errorStatus` fault's), and fault switches
 * named after the fault.
 *
 * @module
 */

import { SeededRandom } from "../../_random.ts";
import { envelope, esc, header, recordXml } from "./_oai_xml.ts";
import type { OaiFaults, OaiRepositoryInfo, OaiSandboxRecord } from "./types.ts";

/** Options of {@linkcode createOaiProvider}. */
export interface OaiProviderOptions {
  /** What Identify says. */
  repository: OaiRepositoryInfo;
  /** The records, or a function that returns the current records on each list request. */
  records: readonly OaiSandboxRecord[] | (() => readonly OaiSandboxRecord[]);
  /** Records per list page; default 100. */
  pageSize?: number;
  /** Fault switches; the same object stays live on the provider. */
  faults?: OaiFaults;
}

/** A running provider: its handler and its live fault switches. */
export interface OaiProvider {
  /** Answers one OAI-PMH request (GET query or POST form). */
  handle(request: Request): Promise<Response>;
  /** The fault switches, read on every request. */
  faults: OaiFaults;
  /** Requests answered, by verb (`ListRecords`), for assertions. */
  readonly hits: Map<string, number>;
}

const FORMATS = [
  {
    prefix: "oai_dc",
    schema: "http://www.openarchives.org/OAI/2.0/oai_dc.xsd",
    namespace: "http://www.openarchives.org/OAI/2.0/oai_dc/",
  },
  {
    prefix: "jps",
    schema: "https://jpsearch.go.jp/schema/jps.xsd",
    namespace: "https://jpsearch.go.jp/term/property#",
  },
];

const ARGUMENTS: Record<string, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ["identifier"] },
  ListSets: { required: [], optional: [], exclusive: "resumptionToken" },
  ListIdentifiers: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
  ListRecords: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
  GetRecord: { required: ["identifier", "metadataPrefix"], optional: [] },
};

interface ListState {
  verb: string;
  prefix: string;
  list: readonly OaiSandboxRecord[];
}

class OaiError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * Makes an OAI-PMH provider over a list of records. Mount `handle` at a
 * site's `/{account}/{db}/api/oai`; the caller answers 404 for private sites.
 *
 * @param options The repository, the records, the page size and the faults.
 * @returns The provider.
 *
 * @example Answering Identify
 * ```ts
 * import { seedOaiRecords } from "./seed_oai_records.ts";
 * const provider = createOaiProvider({
 *   repository: { repositoryName: "Letters", adminEmail: ["admin@archive.example"] },
 *   records: seedOaiRecords({ count: 5 }),
 * });
 * const response = await provider.handle(new Request("http://x.example/acme/letters/api/oai?verb=Identify"));
 * console.log((await response.text()).includes("<repositoryName>Letters</repositoryName>"));
 * ```
 */
export function createOaiProvider(options: OaiProviderOptions): OaiProvider {
  const pageSize = options.pageSize ?? 100;
  const repo = options.repository;
  const dayGranularity = repo.granularity === "YYYY-MM-DD";
  const faults: OaiFaults = options.faults ?? {};
  const tokens = new Map<string, ListState & { page: number }>();
  const hits = new Map<string, number>();
  let tokenCounter = 0;
  const madeUp = new SeededRandom(11); // the made-up list sizes' sequence
  const current = () => typeof options.records === "function" ? options.records() : options.records;
  const stamp = (record: OaiSandboxRecord) =>
    dayGranularity ? { ...record, datestamp: record.datestamp.slice(0, 10) } : record;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const baseURL = `${url.origin}${url.pathname}`;
    const origin = baseURL.replace(/\/api\/oai$/, "");
    const pairs = request.method === "POST"
      ? [...new URLSearchParams(await request.text())]
      : [...url.searchParams];
    const args: Record<string, string> = {};
    let repeated: string | undefined;
    for (const [name, value] of pairs) {
      if (name in args) repeated = name;
      args[name] = value;
    }
    const verb = args.verb ?? "";
    hits.set(verb, (hits.get(verb) ?? 0) + 1);
    const responseDate = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    const reply = (body: string, echo: Record<string, string> = args, status = 200) =>
      new Response(envelope(baseURL, echo, body, responseDate), {
        status,
        headers: { "content-type": "text/xml; charset=utf-8" },
      });
    try {
      if (repeated) throw new OaiError("badArgument", `The argument ${repeated} is repeated`);
      const rules = ARGUMENTS[verb];
      if (!rules) {
        return reply(
          `<error code="badVerb">${
            esc(verb ? `Illegal verb ${verb}` : "The verb is missing")
          }</error>`,
          {},
          faults.errorStatus ?? 200,
        );
      }
      checkArguments(verb, args, rules);
      const body = answer(verb, args, origin);
      if (body instanceof Response) return body;
      return reply(body);
    } catch (error) {
      if (!(error instanceof OaiError)) throw error;
      const echo = error.code === "badVerb" || error.code === "badArgument" ? {} : args;
      return reply(
        `<error code="${error.code}">${esc(error.message)}</error>`,
        echo,
        faults.errorStatus ?? 200,
      );
    }
  }

  function answer(verb: string, args: Record<string, string>, origin: string): string | Response {
    switch (verb) {
      case "Identify":
        return identify(origin);
      case "ListMetadataFormats": {
        if (args.identifier !== undefined) {
          const record = find(args.identifier);
          if (record.deleted) {
            throw new OaiError("noMetadataFormats", `The record ${args.identifier} was deleted`);
          }
        }
        return `<ListMetadataFormats>${
          FORMATS.map((f) =>
            `<metadataFormat><metadataPrefix>${f.prefix}</metadataPrefix><schema>${f.schema}</schema><metadataNamespace>${f.namespace}</metadataNamespace></metadataFormat>`
          ).join("")
        }</ListMetadataFormats>`;
      }
      case "ListSets":
        return listSets(args);
      case "GetRecord": {
        checkPrefix(args.metadataPrefix);
        const record = stamp(find(args.identifier));
        return `<GetRecord>${recordXml(record, args.metadataPrefix, origin)}</GetRecord>`;
      }
      default:
        return list(verb, args, origin);
    }
  }

  function identify(origin: string): string {
    const records = current();
    let earliest = records.reduce(
      (min, r) => (r.datestamp < min ? r.datestamp : min),
      "9999-12-31T23:59:59Z",
    );
    if (records.length === 0) earliest = "1970-01-01T00:00:00Z";
    if (dayGranularity) earliest = earliest.slice(0, 10);
    const admins = repo.adminEmail.map((a) => `<adminEmail>${esc(a)}</adminEmail>`).join("");
    const repoId = repo.repositoryIdentifier ?? "archive.example";
    return `<Identify><repositoryName>${esc(repo.repositoryName)}</repositoryName><baseURL>${
      esc(origin)
    }/api/oai</baseURL><protocolVersion>2.0</protocolVersion>${admins}<earliestDatestamp>${earliest}</earliestDatestamp><deletedRecord>${
      repo.deletedRecord ?? "persistent"
    }</deletedRecord><granularity>${
      repo.granularity ?? "YYYY-MM-DDThh:mm:ssZ"
    }</granularity><description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier"><scheme>oai</scheme><repositoryIdentifier>${
      esc(repoId)
    }</repositoryIdentifier><delimiter>:</delimiter><sampleIdentifier>oai:${
      esc(repoId)
    }:acme/letters/r-000001</sampleIdentifier></oai-identifier></description></Identify>`;
  }

  /** The sets of the records, with their parents (`a` of `a:b`). */
  function knownSets(): Set<string> {
    const sets = new Set<string>();
    for (const record of current()) {
      for (const spec of record.setSpec) {
        const parts = spec.split(":");
        parts.forEach((_, i) => sets.add(parts.slice(0, i + 1).join(":")));
      }
    }
    return sets;
  }

  function listSets(args: Record<string, string>): string {
    if (faults.noSets) {
      throw new OaiError("noSetHierarchy", "This repository does not support sets");
    }
    if (args.resumptionToken !== undefined) {
      throw new OaiError("badResumptionToken", "ListSets answers in one page; no token is valid");
    }
    const specs = [...new Set(current().flatMap((r) => r.setSpec))].sort();
    return `<ListSets>${
      specs.map((spec) =>
        `<set><setSpec>${esc(spec)}</setSpec><setName>${
          esc(repo.setNames?.[spec] ?? spec[0].toUpperCase() + spec.slice(1))
        }</setName></set>`
      ).join("")
    }</ListSets>`;
  }

  function list(verb: string, args: Record<string, string>, origin: string): string | Response {
    let state: ListState & { page: number };
    if (args.resumptionToken !== undefined) {
      const found = tokens.get(args.resumptionToken);
      if (!found || found.verb !== verb) {
        throw new OaiError("badResumptionToken", "The resumptionToken is invalid or expired");
      }
      if (faults.expireTokenOnPage === found.page) {
        faults.expireTokenOnPage = undefined;
        tokens.delete(args.resumptionToken);
        throw new OaiError("badResumptionToken", "The resumptionToken has expired");
      }
      state = found;
    } else {
      checkPrefix(args.metadataPrefix);
      const from = checkDate(args.from, "from");
      const until = checkDate(args.until, "until");
      if (from && until && from.length !== until.length) {
        throw new OaiError("badArgument", "from and until have different granularities");
      }
      if (from && until && from > until) {
        throw new OaiError("badArgument", "from is later than until");
      }
      if (args.set !== undefined && faults.noSets) {
        throw new OaiError("noSetHierarchy", "This repository does not support sets");
      }
      // As Catmandu's provider answers: a set ListSets does not name is a bad argument.
      if (args.set !== undefined && !knownSets().has(args.set)) {
        throw new OaiError("badArgument", "set does not exist");
      }
      const cut = (d: string) => d.slice(0, (from ?? until ?? d).length);
      const matching = current()
        .filter((r) =>
          (!from || cut(r.datestamp) >= from) && (!until || cut(r.datestamp) <= until) &&
          (args.set === undefined || r.setSpec.includes(args.set))
        )
        .slice()
        .sort((a, b) =>
          a.datestamp < b.datestamp
            ? -1
            : a.datestamp > b.datestamp
            ? 1
            : a.identifier < b.identifier
            ? -1
            : 1
        );
      if (matching.length === 0) {
        throw new OaiError("noRecordsMatch", "No records match the arguments");
      }
      state = { verb, prefix: args.metadataPrefix, list: matching, page: 0 };
    }
    const unavailable = faults.unavailable;
    if (unavailable && unavailable.page === state.page) {
      const times = (unavailable.times ?? 1) - 1;
      faults.unavailable = times > 0 ? { ...unavailable, times } : undefined;
      return new Response("Service temporarily unavailable", {
        status: 503,
        headers: { "retry-after": unavailable.retryAfter },
      });
    }
    const endless = faults.endlessTokensFromPage;
    const stuck = endless !== undefined && state.page >= endless;
    // Stuck: every later page repeats the first stuck page's records.
    const start = (stuck ? endless : state.page) * pageSize;
    const slice = state.list.slice(start, start + pageSize);
    if (faults.repeatAcrossPages && state.page > 0) slice.unshift(state.list[start - 1]);
    const items = slice.map((r) =>
      verb === "ListRecords" ? recordXml(stamp(r), state.prefix, origin) : header(stamp(r))
    ).join("");
    const size = state.list.length;
    const said = faults.madeUpListSize ? 1 + Math.floor(madeUp.next() * 10 * size) : size;
    const about = faults.noListSize ? "" : ` completeListSize="${said}" cursor="${start}"`;
    let token = "";
    if (stuck || start + pageSize < size) {
      const next = `t${++tokenCounter}-${start + pageSize}`;
      tokens.set(next, { ...state, page: state.page + 1 });
      token = `<resumptionToken${about}>${next}</resumptionToken>`;
    } else if (state.page > 0) {
      token = faults.selfClosingLastToken
        ? `<resumptionToken${about}/>`
        : `<resumptionToken${about}></resumptionToken>`;
    }
    return `<${verb}>${items}${token}</${verb}>`;
  }

  function find(identifier: string): OaiSandboxRecord {
    const record = current().find((r) => r.identifier === identifier);
    if (!record) throw new OaiError("idDoesNotExist", `No record has the identifier ${identifier}`);
    return record;
  }

  function checkPrefix(prefix: string) {
    if (!FORMATS.some((f) => f.prefix === prefix)) {
      throw new OaiError(
        "cannotDisseminateFormat",
        `The metadata format ${prefix} is not supported; use oai_dc or jps`,
      );
    }
  }

  function checkDate(value: string | undefined, name: string): string | undefined {
    if (value === undefined) return undefined;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
    if (!dayGranularity && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)) return value;
    throw new OaiError("badArgument", `The ${name} argument ${value} is not a valid datestamp`);
  }

  return { handle, faults, hits };
}

function checkArguments(
  verb: string,
  args: Record<string, string>,
  rules: { required: string[]; optional: string[]; exclusive?: string },
) {
  const given = Object.keys(args).filter((k) => k !== "verb");
  if (rules.exclusive && rules.exclusive in args) {
    if (given.length > 1) {
      throw new OaiError("badArgument", `${rules.exclusive} is an exclusive argument`);
    }
    return;
  }
  for (const name of given) {
    if (!rules.required.includes(name) && !rules.optional.includes(name)) {
      throw new OaiError("badArgument", `Illegal argument ${name} for ${verb}`);
    }
  }
  for (const name of rules.required) {
    if (!(name in args)) throw new OaiError("badArgument", `Missing argument ${name} for ${verb}`);
  }
}
