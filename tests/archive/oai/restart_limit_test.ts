import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { PagingError } from "../../../lib/paging/errors.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";

const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-01-01T00:00:00Z</responseDate>
<request verb="ListIdentifiers">http://127.0.0.1/oai</request>
${body}
</OAI-PMH>`;

const header = (i: number) =>
  `<header><identifier>oai:x:${i}</identifier><datestamp>2026-01-0${i}</datestamp></header>`;

/**
 * A repository that rejects every resumption token it hands out. After 60
 * requests it answers one page without a token, so a client that restarts
 * forever ends (with the first page) instead of hanging the test.
 */
function rejectingRepository() {
  let requests = 0;
  const server = serveLocal((request) => {
    requests++;
    const token = new URL(request.url).searchParams.get("resumptionToken");
    const body = token
      ? `<error code="badResumptionToken">The resumptionToken is invalid or expired</error>`
      : `<ListIdentifiers>${header(1)}${header(2)}${
        requests > 60 ? "" : `<resumptionToken completeListSize="4">t${requests}</resumptionToken>`
      }</ListIdentifiers>`;
    return new Response(envelope(body), { headers: { "content-type": "text/xml" } });
  });
  return { server, requests: () => requests };
}

Deno.test("a repository rejecting every resumption token ends at the restart limit", async () => {
  const { server, requests } = rejectingRepository();
  const warnings: string[] = [];
  try {
    const oai = new OaiPmh(`${server.url}/oai`, {
      progress: false,
      concurrency: 1,
      retry: false,
      warn: (m) => warnings.push(m),
    });
    const error = await oai.harvest({ verb: "ListIdentifiers" }).catch((e) => e);
    assert.ok(error instanceof PagingError, `expected a PagingError, got ${error}`);
    assert.equal(error.code, "restartLimit");
    assert.match(error.message, /gave up after 5 restarts in a row without a new row/);
    assert.match(error.message, /resumptionToken is invalid or expired|badResumptionToken/);
    // The first page, then six rounds of a refused token and page one again.
    assert.equal(requests(), 12);
    assert.equal(warnings.filter((w) => /restarting the window/.test(w)).length, 5);
  } finally {
    await server.close();
  }
});
