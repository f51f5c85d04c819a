/**
 * A hostile OAI-PMH repository on loopback for attacking `tidepool harvest`:
 * it answers Identify and ListRecords (oai_dc) with the records a test
 * gives, counts what it was asked, and is closed by `await using`.
 */

/** One record the repository lists. */
export interface HostileRecord {
  identifier: string;
  datestamp: string;
  title?: string;
  deleted?: boolean;
}

/** The repository: its OAI-PMH address, the records it lists, the requests it saw. */
export interface HostileOai extends AsyncDisposable {
  url: string;
  records: HostileRecord[];
  requests: URLSearchParams[];
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The oai_dc record element of a record. */
export function recordXml(record: HostileRecord): string {
  const header = `<header${record.deleted ? ' status="deleted"' : ""}><identifier>${
    escapeXml(record.identifier)
  }</identifier><datestamp>${record.datestamp}</datestamp></header>`;
  if (record.deleted) return `<record>${header}</record>`;
  return `<record>${header}<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${
    escapeXml(record.title ?? record.identifier)
  }</dc:title></oai_dc:dc></metadata></record>`;
}

/** An OAI-PMH envelope around a verb's element. */
export function envelope(verb: string, inner: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate><request verb="${verb}">x</request>${inner}</OAI-PMH>`;
}

/**
 * Starts the repository. `answer` may replace the ListRecords answer (a
 * hostile page); by default every record whose datestamp is at or after
 * `from` is listed on one page.
 */
export function hostileOai(
  records: HostileRecord[],
  answer?: (
    query: URLSearchParams,
    requests: number,
  ) => Response | Promise<Response | undefined> | undefined,
): HostileOai {
  const requests: URLSearchParams[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const query = new URL(req.url).searchParams;
    requests.push(query);
    if (requests.length > 10_000) return new Response("too many requests", { status: 503 });
    const verb = query.get("verb");
    if (verb === "Identify") {
      return new Response(
        envelope(
          "Identify",
          "<Identify><repositoryName>hostile</repositoryName><baseURL>http://127.0.0.1/oai</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@example.org</adminEmail><earliestDatestamp>2000-01-01T00:00:00Z</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>",
        ),
        { headers: { "content-type": "text/xml" } },
      );
    }
    const custom = await answer?.(query, requests.length);
    if (custom) return custom;
    const from = query.get("from");
    const listed = records.filter((r) => !from || Date.parse(r.datestamp) >= Date.parse(from));
    if (listed.length === 0) {
      return new Response(
        envelope("ListRecords", '<error code="noRecordsMatch">none</error>'),
        { headers: { "content-type": "text/xml" } },
      );
    }
    return new Response(
      envelope("ListRecords", `<ListRecords>${listed.map(recordXml).join("")}</ListRecords>`),
      { headers: { "content-type": "text/xml" } },
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/oai`,
    records,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
