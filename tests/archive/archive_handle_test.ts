/**
 * The archive's actions (lib/archive/actions/, through lib/archive/_archive_handle.ts)
 * are free functions of an `Archive`: they answer as its methods do, with
 * the same provenance, and refuse anything `new Archive` did not make.
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { provenance } from "../../lib/table/provenance.ts";
import * as actions from "../../lib/archive/actions/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

Deno.test("an action answers as the method of the same name, with the method's provenance", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const byMethod = await archive.resources();
    const byAction = await actions.resources(archive);
    assert.deepEqual(byAction.objects(), byMethod.objects());
    assert.equal(provenance(byAction)?.operation, "Archive.resources");
    assert.equal(provenance(byAction)?.service, archive.url);
    const [slug] = byAction.array("slug") as string[];
    assert.deepEqual(await actions.resource(archive, slug), await archive.resource(slug));
    const pages = [];
    for await (const page of actions.sparqlPages(archive, "SELECT ?s WHERE { ?s ?p ?o }")) {
      pages.push(provenance(page)?.operation);
    }
    assert.ok(pages.length > 0);
    assert.ok(pages.every((operation) => operation === "Archive.sparqlPages"));
  });
});

Deno.test("an action refuses a look-alike of an Archive before sending anything", async () => {
  const fake = { url: "http://127.0.0.1:9", account: "a", db: "b" };
  for (
    const call of [
      () => actions.search(fake, { q: "x" }),
      () => actions.resource(fake, "x"),
      () => actions.sparql(fake, "ASK {}"),
      () => actions.upload(fake, new Uint8Array(1)),
      () => Promise.resolve().then(() => actions.dataUri(fake, "x")),
      () => Promise.resolve().then(() => actions.searchPages(fake).next()),
    ]
  ) {
    await assert.rejects(call, (error: Error) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, /^Not an Archive client/);
      return true;
    });
  }
});
