/**
 * Serves the recorded OAI-PMH responses of tests/fixtures/external/oai over
 * loopback, and reads them independently of tidepool (linkedom's XML DOM),
 * so tests can compare what tidepool made of a response with the response.
 */

import { DOMParser } from "linkedom";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { type LocalServer, serveLocal } from "../../../lib/sandbox/_serve.ts";

const DIR = new URL("../../fixtures/external/oai/", import.meta.url);

/** The text of a recorded response, by its path below fixtures/external/oai. */
export function readFixture(name: string): string {
  return Deno.readTextFileSync(new URL(name, DIR));
}

/**
 * The two single-record files of dpla-records wrapped in a ListRecords
 * envelope, as the fixture notes describe (the records are kept byte for byte).
 */
export function wrapRecord(name: string): string {
  const record = readFixture(name).replace(/^<\?xml[^>]*\?>\s*/, "");
  return `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-01T00:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="mods">https://example.org/oai</request>
<ListRecords>${record}</ListRecords></OAI-PMH>`;
}

/**
 * Serves one recorded body per request: `route` maps the query to a fixture
 * name, or to `{ body }` for a built one. An unknown request is answered with
 * OAI-PMH's badResumptionToken or badArgument error, as a repository would.
 */
export function serveFixtures(
  route: (query: URLSearchParams) => string | { body: string } | undefined,
): LocalServer {
  return serveLocal((request) => {
    const query = new URL(request.url).searchParams;
    const found = route(query);
    const body = found === undefined
      ? errorBody(query.has("resumptionToken") ? "badResumptionToken" : "badArgument")
      : typeof found === "string"
      ? readFixture(found)
      : found.body;
    return new Response(body, { headers: { "content-type": "text/xml; charset=utf-8" } });
  });
}

function errorBody(code: string): string {
  return `<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">` +
    `<responseDate>2024-01-01T00:00:00Z</responseDate><request>x</request>` +
    `<error code="${code}">no recording for this request</error></OAI-PMH>`;
}

/** A client of the fixture server that collects warnings. */
export function fixtureClient(server: LocalServer, warnings: string[] = []): OaiPmh {
  // Recorded answers are one list each: read one list at a time.
  return new OaiPmh(`${server.url}/oai`, {
    progress: false,
    concurrency: 1,
    warn: (m) => warnings.push(m),
  });
}

/** One record of a response as the DOM reads it. */
export interface RecordInDom {
  identifier: string;
  deleted: boolean;
  /** The trimmed, non-blank own text of every element inside `metadata` and `about`. */
  texts: string[];
}

/** The part of linkedom's DOM node that the reading below uses. */
interface DomNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode;
  getAttribute(name: string): string | null;
}

/** Every record (or header, for ListIdentifiers) of a response, read with linkedom. */
export function recordsInDom(xml: string): RecordInDom[] {
  const doc = new DOMParser().parseFromString(xml, "text/xml") as unknown as {
    getElementsByTagName(name: string): ArrayLike<DomNode>;
  };
  const headers = Array.from(doc.getElementsByTagName("header"));
  return headers.map((header) => {
    const record = header.parentNode;
    const parts = Array.from(record.childNodes).filter((n) =>
      n.localName === "metadata" || n.localName === "about"
    );
    const texts: string[] = [];
    const walk = (node: DomNode) => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType !== 1) continue;
        const own = Array.from(child.childNodes)
          .filter((n) => n.nodeType === 3 || n.nodeType === 4)
          .map((n) => n.textContent ?? "").join("").replace(/\r\n?/g, "\n");
        // Text is kept as sent, spaces and line breaks around it included; an element that
        // only holds other elements (white space between them) has no text of its own.
        if (own.trim()) texts.push(own);
        walk(child);
      }
    };
    if (record.localName === "record") parts.forEach(walk);
    const identifier = Array.from(header.childNodes).find((n) => n.localName === "identifier");
    return {
      identifier: (identifier?.textContent ?? "").trim(),
      deleted: header.getAttribute("status") === "deleted",
      texts,
    };
  });
}
