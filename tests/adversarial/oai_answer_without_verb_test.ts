/**
 * An OAI-PMH answer holds either the verb's element or an `error` element.
 * Read whatever the HTTP status, an envelope with neither must not become an
 * empty harvest: a 401, 403 or 404 whose body is an OAI-PMH envelope with no
 * `error` (a login wall, a forbidden set, an endpoint that moved) is still a
 * failure, and so is a 200 that answers another verb or nothing. Each answer
 * comes from a hostile repository on loopback that counts its requests.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const envelope = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">` +
  `<responseDate>2024-01-01T00:00:00Z</responseDate>` +
  `<request verb="ListRecords" metadataPrefix="oai_dc">http://repo.example/oai</request>${inner}</OAI-PMH>`;

const ANSWERS: [string, number, string][] = [
  ["401 with an envelope and no error", 401, envelope("")],
  ["403 with an envelope and no error", 403, envelope("")],
  ["404 with an envelope and no error", 404, envelope("")],
  ["403 with an empty ListRecords", 403, envelope("<ListRecords/>")],
  ["200 with neither the verb nor an error", 200, envelope("")],
  [
    "200 answering ListIdentifiers to ListRecords",
    200,
    envelope(
      "<ListIdentifiers><header><identifier>oai:x:1</identifier><datestamp>2020-01-01</datestamp></header></ListIdentifiers>",
    ),
  ],
];

for (const [what, status, body] of ANSWERS) {
  Deno.test(`OAI-PMH harvest: ${what} is an error, not an empty table`, async () => {
    let requests = 0;
    const server = serveLocal(() => {
      requests++;
      return new Response(body, { status, headers: { "content-type": "text/xml" } });
    }, { maxRequests: 20 });
    try {
      const oai = new OaiPmh(`${server.url}/oai`, { progress: false, retry: false });
      const outcome = await oai.harvest({}).then(
        (table) => `an empty table of ${table.numRows()} rows`,
        (error: unknown) => error,
      );
      assert.ok(outcome instanceof TidepoolError, `got ${outcome}`);
      assert.ok(requests >= 1);
    } finally {
      await server.close();
    }
  });
}
