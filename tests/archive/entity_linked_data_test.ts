/** entityLinkedData(slug): an authority record's JSON-LD, read like a resource's. */

import assert from "node:assert/strict";
import { NotFoundError } from "../../lib/errors/errors.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

Deno.test("entityLinkedData: the entity's JSON-LD with its labels and sameAs links", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const requested: string[] = [];
    const { archive: watched } = archiveOn(sandbox, {
      fetch: (input, init) => {
        requested.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    const doc = await watched.entityLinkedData("tokyo");
    assert.match(requested[0], /\/api\/shinano\/entities\/tokyo\?format=jsonld$/);
    const text = JSON.stringify(doc);
    assert.match(text, /entities\/tokyo/);
    assert.match(text, /東京/);
    assert.match(text, /Q1490/, "the Wikidata sameAs link is in the document");
    const record = await archive.entity("tokyo");
    for (const label of Object.values(record.prefLabel)) assert.ok(text.includes(label), label);
    await assert.rejects(archive.entityLinkedData("atlantis"), NotFoundError);
  });
});
