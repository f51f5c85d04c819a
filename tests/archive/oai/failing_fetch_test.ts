import assert from "node:assert/strict";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { failingOn } from "./_failing_fetch.ts";

Deno.test("failingOn drops only the n-th list request; Identify is neither dropped nor counted", async () => {
  const seen: string[] = [];
  const server = serveLocal((request) => {
    seen.push(new URL(request.url).search);
    return new Response("ok");
  });
  try {
    const fetcher = failingOn(2);
    const get = (query: string) => fetcher(`${server.url}/oai?${query}`).then((r) => r.text());
    assert.equal(await get("verb=ListRecords&metadataPrefix=oai_dc"), "ok");
    assert.equal(await get("verb=Identify"), "ok");
    await assert.rejects(get("verb=ListRecords&resumptionToken=t1"), TypeError);
    assert.equal(await get("verb=ListRecords&resumptionToken=t1"), "ok");
    assert.deepEqual(seen, [
      "?verb=ListRecords&metadataPrefix=oai_dc",
      "?verb=Identify",
      "?verb=ListRecords&resumptionToken=t1",
    ]);
  } finally {
    await server.close();
  }
});
