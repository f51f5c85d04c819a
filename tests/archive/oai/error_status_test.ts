/**
 * The sandbox OAI-PMH provider can send its protocol errors with another
 * status, as Zenodo does (422), and the client reads them by their body.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { ProtocolError } from "../../../lib/errors/errors.ts";
import { startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";

const SITE = "acme/letters";

Deno.test("sandbox errorStatus: errors come with that status, and read as on a 200", async () => {
  const sandbox = startOaiSandbox({ pageSize: 10 });
  try {
    for (const status of [422, 400, 404]) {
      sandbox.providers[SITE].faults.errorStatus = status;
      const endpoint = `${sandbox.url}/${SITE}/api/oai`;
      // What the sandbox sends, read without tidepool (a window before every record).
      const raw = await fetch(
        `${endpoint}?verb=ListRecords&metadataPrefix=oai_dc&until=1990-01-01`,
      );
      assert.equal(raw.status, status);
      assert.match(await raw.text(), /<error code="noRecordsMatch">/);

      const oai = new OaiPmh(endpoint, { progress: false, warn() {} });
      const empty = await oai.harvest({ until: "1990-01-01" });
      assert.equal(empty.numRows(), 0);
      const error = await oai.getRecord("oai:archive.example:none").catch((e) => e);
      assert.ok(error instanceof ProtocolError, `${status}: got ${error}`);
      assert.equal(error.code, "idDoesNotExist");
      assert.match(error.message, new RegExp(`HTTP ${status}`));
      const all = await oai.harvest({});
      assert.equal(all.numRows(), sandbox.records[SITE].length);
    }
  } finally {
    await sandbox.close();
  }
});
