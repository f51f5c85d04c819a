/**
 * A loopback OAI-PMH repository that lists records in an order of the
 * test's choosing, with stateless offset tokens as Catmandu's provider
 * gives them (a token says where the next page starts, so a record that
 * leaves a list between pages moves the records after it up by one).
 * Its records may be changed between requests.
 */

/** One record: identifier and datestamp (seconds, `YYYY-MM-DDThh:mm:ssZ`). */
export interface OrderedRecord {
  identifier: string;
  datestamp: string;
}

/** A running repository. */
export interface OrderedServer {
  /** The base URL. */
  url: string;
  /** The records served, changed in place by a test. */
  records: OrderedRecord[];
  /** List requests answered (first pages and tokens). */
  lists: number;
  /** Called before each list page is answered, with the page's start and the list's window. */
  onList?: (start: number, from: string, until: string) => void;
  [Symbol.asyncDispose](): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Starts the repository on 127.0.0.1, listing by `compare`, `pageSize` records a page. */
export function startOrderedServer(
  records: OrderedRecord[],
  compare: (a: OrderedRecord, b: OrderedRecord) => number,
  pageSize = 2,
): OrderedServer {
  const envelope = (request: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-29T00:00:00Z</responseDate><request>${
      esc(request)
    }</request>${body}</OAI-PMH>`;
  const server: OrderedServer = {
    url: "",
    records,
    lists: 0,
    async [Symbol.asyncDispose]() {
      await http.shutdown();
    },
  };
  const answer = (query: URLSearchParams, url: string): string => {
    const verb = query.get("verb");
    if (verb === "Identify") {
      const earliest = server.records.map((r) => r.datestamp).sort()[0] ?? "2020-01-01T00:00:00Z";
      return envelope(
        url,
        `<Identify><repositoryName>Ordered</repositoryName><baseURL>${url}</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@b.example</adminEmail><earliestDatestamp>${earliest}</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>`,
      );
    }
    if (verb !== "ListRecords" && verb !== "ListIdentifiers") {
      return envelope(url, `<error code="badVerb">only lists</error>`);
    }
    const token = query.get("resumptionToken");
    const [start, from, until] = token
      ? JSON.parse(atob(token)) as [number, string, string]
      : [0, query.get("from") ?? "", query.get("until") ?? ""];
    server.lists++;
    server.onList?.(start, from, until);
    const matching = server.records
      .filter((r) => (!from || r.datestamp >= from) && (!until || r.datestamp <= until))
      .sort(compare);
    if (matching.length === 0) {
      return envelope(url, `<error code="noRecordsMatch">none</error>`);
    }
    const page = matching.slice(start, start + pageSize);
    const headers = page.map((r) =>
      `<header><identifier>${
        esc(r.identifier)
      }</identifier><datestamp>${r.datestamp}</datestamp></header>`
    );
    const items = verb === "ListIdentifiers"
      ? headers
      : headers.map((h) =>
        `<record>${h}<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>t</dc:title></oai_dc:dc></metadata></record>`
      );
    const next = start + pageSize;
    const more = next < matching.length;
    const tokenXml = `<resumptionToken completeListSize="${matching.length}" cursor="${start}">${
      more ? btoa(JSON.stringify([next, from, until])) : ""
    }</resumptionToken>`;
    return envelope(url, `<${verb}>${items.join("")}${token || more ? tokenXml : ""}</${verb}>`);
  };
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    const body = answer(url.searchParams, `${url.origin}${url.pathname}`);
    return new Response(body, { headers: { "content-type": "text/xml; charset=utf-8" } });
  });
  server.url = `http://127.0.0.1:${http.addr.port}/oai`;
  return server;
}
