/**
 * The archive sandbox's OAI-PMH provider answers as Catmandu's does where
 * they differed (issue 52): the default seed has deleted records, in every
 * verb, and a set that does not exist is `badArgument`.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { OaiPmh } from "../../lib/archive/oai/oai_pmh.ts";
import { ProtocolError } from "../../lib/errors/errors.ts";

Deno.test("sandbox OAI-PMH: deleted records in the default seed, in every verb", async () => {
  await using sandbox = await startSandbox();
  const url = `${sandbox.urls.archive}/shinano/letters/api/oai`;
  const oai = new OaiPmh(url, { progress: false });
  const records = await oai.harvest();
  const rows = records.objects() as Record<string, unknown>[];
  const deleted = rows.filter((r) => r.deleted === true);
  assert.equal(deleted.length, 3);
  for (const row of deleted) {
    assert.equal(row["dc:title"], null, "a deleted record has no metadata");
    assert.deepEqual(row.setSpec, ["item"]);
  }
  const headers = await oai.harvest({ verb: "ListIdentifiers" });
  assert.equal(headers.numRows(), records.numRows());
  assert.equal((headers.array("deleted") as boolean[]).filter((d) => d).length, 3);
  const one = await oai.getRecord(deleted[0].identifier as string);
  assert.equal(one.deleted, true);
  assert.deepEqual(one.metadata, {});
  // As Catmandu sends it: a header with status="deleted" and no metadata element.
  const text = await (await fetch(
    `${url}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${deleted[0].identifier}`,
  )).text();
  assert.match(text, /<header status="deleted">/);
  assert.doesNotMatch(text, /<metadata>/);
});

Deno.test("sandbox OAI-PMH: an unknown set is badArgument, as Catmandu answers", async () => {
  await using sandbox = await startSandbox();
  const oai = new OaiPmh(`${sandbox.urls.archive}/shinano/letters/api/oai`, { progress: false });
  await assert.rejects(
    () => oai.harvest({ set: "no-such-set" }),
    (error) => error instanceof ProtocolError && error.code === "badArgument",
  );
  const items = await oai.harvest({ set: "item" });
  assert.ok(items.numRows() > 0);
  // A set that exists, in a window without records, is still an empty table.
  assert.equal((await oai.harvest({ set: "item", until: "2000-01-01" })).numRows(), 0);
});
