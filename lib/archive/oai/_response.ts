/**
 * One OAI-PMH request: GET with the verb's arguments, the authority check,
 * safe parsing, and the `error` element, whatever the status it comes with
 * (HTTP 200 as the protocol says, 422 from Zenodo, 400 or 404 elsewhere).
 *
 * @module
 */

import { noteAsOf } from "../../table/call_trace.ts";
import { answersOnly } from "../../http/cache_policy.ts";
import type { HttpClient } from "../../http/client.ts";
import { errorFromResponse } from "../../http/error_from_response.ts";
import { NotFoundError, ProtocolError, TidepoolError } from "../../errors/errors.ts";
import { attribute, child, children, parseXml, textOf, type XmlNode } from "../../xml/xml.ts";

/** What every OAI-PMH call needs: the client, the endpoint path and the host rule. */
export interface OaiContext {
  http: HttpClient;
  path: string;
  allowOtherHosts: boolean;
}

/** A parsed answer: the verb element, the response date and any protocol error. */
export interface OaiAnswer<T = never> {
  verbNode: XmlNode | undefined;
  /** The list items read as they closed (see {@linkcode OaiItems}); they are not in verbNode. */
  items: T[];
  responseDate?: string;
  error?: { code: string; message: string };
  url: string;
}

const HINTS: Record<string, string> = {
  badArgument:
    "Check the arguments: metadataPrefix, set, and from/until in the repository's granularity (see identify())",
  badResumptionToken:
    "The token expired or is invalid; start the harvest again (with the state option tidepool restarts the window itself)",
  badVerb: "The repository does not know this verb; this is a bug in the request, please report it",
  cannotDisseminateFormat:
    "Call listMetadataFormats() to see the formats this repository offers, and pass one as metadataPrefix",
  idDoesNotExist: "Check the identifier; harvest ListIdentifiers to see the identifiers it has",
  noMetadataFormats: "The item has no metadata formats (it may be deleted)",
  noSetHierarchy: "This repository has no sets; harvest without the set option",
};

/**
 * An OAI-PMH answer is kept unless it carries an `error` element other than
 * `noRecordsMatch` (an empty result is an answer): protocol errors come with
 * HTTP 200, and a stored `badResumptionToken` or outage would never go away.
 * Bodies without any error tag are accepted without a second parse.
 */
const OAI_ANSWER = answersOnly("OAI-PMH request", async (response) => {
  const text = response.text();
  if (!/<(?:[\w.-]+:)?error[\s>/]/.test(text)) return true;
  const envelope = child(await parseXml(text, "OAI-PMH response", response.url), "OAI-PMH");
  if (!envelope || typeof envelope !== "object") return false;
  return children(envelope, "error").every((e) => attribute(e, "code") === "noRecordsMatch");
});

/**
 * Client-error statuses whose body is read as an OAI-PMH answer when it is
 * one: Zenodo (Invenio) sends every protocol error with 422, other servers
 * with 400 or 404. 408 and 429 are flow control and stay with the retry loop;
 * 5xx answers are retried as server failures.
 */
const OAI_ERROR_STATUSES: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i)
  .filter((status) => status !== 408 && status !== 429);

/** Whether a body is an OAI-PMH document (its root element, after any prolog). */
function isOaiDocument(text: string): boolean {
  return /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*<(?:[\w.-]+:)?OAI-PMH[\s>/]/.test(text);
}

/** Whether a body is an OAI-PMH document holding an `error` element. */
function isOaiError(text: string): boolean {
  return isOaiDocument(text) && /<(?:[\w.-]+:)?error[\s>/]/.test(text);
}

/** The items of a list verb (`record`, `header`) and how to read each one. */
export interface OaiItems<T> {
  /** The items' local name, directly inside the verb element. */
  name: string;
  /** Hand each item's XML as sent to `read` too. */
  raw?: boolean;
  /** Reads one item's element (and its XML, with `raw`). */
  read: (node: unknown, xml?: string) => T;
}

/**
 * Sends one verb and parses the answer. A `noRecordsMatch` error is handed
 * back in `error`; every other protocol error is thrown as a ProtocolError.
 */
export async function oaiRequest<T = never>(
  ctx: OaiContext,
  args: Record<string, string | undefined>,
  signal?: AbortSignal,
  list?: OaiItems<T>,
): Promise<OaiAnswer<T>> {
  const verb = args.verb ?? "";
  const requested = ctx.http.url(ctx.path, args);
  let response;
  try {
    response = await ctx.http.request({
      path: ctx.path,
      query: args,
      headers: { accept: "text/xml, application/xml" },
      idempotent: true,
      cachePolicy: OAI_ANSWER,
      acceptStatus: OAI_ERROR_STATUSES,
      signal,
    });
    // An error status is the server's word unless the body is an OAI-PMH
    // document carrying a protocol error: that error is the authority, whatever
    // the status. An envelope without one (a login wall, a forbidden set) does
    // not turn a failure into an answer.
    if (response.status >= 300 && !isOaiError(response.text())) {
      throw errorFromResponse("GET", response);
    }
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError(
        `OAI-PMH is not offered at ${error.url}: the server answered 404`,
        {
          status: 404,
          method: "GET",
          url: error.url,
          body: error.body,
          hint:
            "Give the endpoint's own address, the one that answers ?verb=Identify (often ending in /oai or /api/oai); on the archive platform, private sites answer 404 too, so check the account and database names and that the site is public",
        },
      );
    }
    throw error;
  }
  const answered = new URL(response.url || requested.toString());
  if (!ctx.allowOtherHosts && answered.host !== requested.host) {
    throw new TidepoolError(
      `OAI-PMH answer came from another host: ${requested.host} redirected to ${answered.host}`,
      { hint: "Pass allowOtherHosts: true if the repository moved there and you trust it" },
    );
  }
  // The list's items are read one by one as they close: a page of records
  // never stands as one tree of objects. Text is kept as sent (metadata
  // values keep their spaces); protocol fields are trimmed where read.
  const items: T[] = [];
  const root = await parseXml(response.text(), `OAI-PMH ${verb} response`, response.url, {
    trim: false,
    each: list && {
      depth: 3,
      name: list.name,
      raw: list.raw,
      element: (node, xml) => items.push(list.read(node, xml)),
    },
  });
  const envelope = child(root, "OAI-PMH") as XmlNode | undefined;
  if (!envelope || typeof envelope !== "object") {
    throw new ProtocolError(
      `Cannot read the OAI-PMH ${verb} response from ${response.url}: the document has no OAI-PMH element`,
      {
        code: "invalidXml",
        details: response.text().slice(0, 300),
        hint: "Check that the URL is an OAI-PMH endpoint",
      },
    );
  }
  const responseDate = textOf(child(envelope, "responseDate"))?.trim();
  noteAsOf({ responseDate: responseDate || undefined });
  const errors = children(envelope, "error");
  if (errors.length > 0) {
    const code = attribute(errors[0], "code") ?? "undefinedError";
    const message = (textOf(errors[0]) ?? "").replace(/\s+/g, " ").trim();
    if (code === "noRecordsMatch") {
      return {
        verbNode: undefined,
        items: [],
        responseDate,
        error: { code, message },
        url: response.url,
      };
    }
    const messages = errors.map((e) =>
      `${attribute(e, "code") ?? "undefinedError"}${
        textOf(e)?.trim() ? `: ${textOf(e)?.trim()}` : ""
      }`
    );
    const status = response.status === 200 ? "" : ` (HTTP ${response.status})`;
    throw new ProtocolError(
      `OAI-PMH ${verb} failed with error ${code}${status}${message ? `: ${message}` : ""}`,
      {
        code,
        messages,
        hint: HINTS[code] ??
          "The repository reported an error; try again later or ask its operator",
      },
    );
  }
  const verbNode = child(envelope, verb);
  if (verbNode === undefined && verb.startsWith("List")) {
    // Neither the list nor an error: the protocol allows no such answer, and
    // reading it as an empty list would report a failure as an empty harvest.
    throw new ProtocolError(
      `OAI-PMH ${verb} response from ${response.url} has neither a ${verb} nor an error element`,
      {
        code: "missingVerb",
        details: response.text().slice(0, 300),
        hint:
          "The repository answered something else than what was asked; check the URL, or report it",
      },
    );
  }
  return {
    verbNode: verbNode && typeof verbNode === "object" ? verbNode as XmlNode : {},
    items,
    responseDate,
    url: response.url,
  };
}
