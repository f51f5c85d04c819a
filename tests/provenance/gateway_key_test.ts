/**
 * A The Graph gateway key travels in the URL path or in a bearer header;
 * either way it never reaches provenance, the display line, a bundle's
 * RO-Crate, a recording's services.json or an error.
 */

import assert from "node:assert/strict";
import { provenance, Subgraph } from "../../mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { provenanceLine } from "../../lib/notebook/provenance_line.ts";
import { saveBundle } from "../../lib/bundle/mod.ts";
import { writeRecordedServices } from "../../lib/sandbox/_recorded_services.ts";
import { HttpError } from "../../lib/errors/errors.ts";

/** A fake gateway on loopback: `/api/<key>/subgraphs/id/ocean` forwards to the sandbox subgraph. */
function serveGateway(endpoint: string, seen: { authorization: (string | null)[] }) {
  return serveLocal(async (request) => {
    seen.authorization.push(request.headers.get("authorization"));
    if (!new URL(request.url).pathname.endsWith("/subgraphs/id/ocean")) {
      return new Response("subgraph not found", { status: 404 });
    }
    return await fetch(endpoint, { method: "POST", body: await request.text() });
  }, { maxRequests: 100 });
}

Deno.test("a gateway key in the URL path reaches no provenance, display, bundle, recording or error", async () => {
  const key = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
  const sandbox = serveSubgraph();
  const gateway = serveGateway(sandbox.endpoint, { authorization: [] });
  const dir = await Deno.makeTempDir();
  try {
    const url = `${gateway.url}/api/${key}/subgraphs/id/ocean`;
    const sg = new Subgraph(url, { progress: false });
    const table = await sg.globalStatistics();
    const from = provenance(table)!;
    assert.equal(from.service, `${gateway.url}/api/[redacted]/subgraphs/id/ocean`);
    assert.ok(!provenanceLine(table)!.includes(key));

    await saveBundle(`${dir}/bundle`, { draft: true, tables: { statistics: table } });
    const crate = await Deno.readTextFile(`${dir}/bundle/ro-crate-metadata.json`);
    assert.ok(crate.includes("Subgraph.globalStatistics"));
    assert.ok(!crate.includes(key));

    await writeRecordedServices(`${dir}/cache`, {
      urls: { ocean: gateway.url, subgraph: url, expressions: gateway.url, archive: gateway.url },
      archiveSite: { account: "a", db: "b" },
      live: true,
    });
    assert.ok(!(await Deno.readTextFile(`${dir}/cache/services.json`)).includes(key));

    const missing = new Subgraph(`${gateway.url}/api/${key}/subgraphs/id/gone`, {
      progress: false,
      retry: false,
    });
    const error = await missing.globalStatistics().then(() => undefined, (error) => error);
    assert.ok(error instanceof HttpError, String(error));
    assert.ok(!error.url.includes(key) && !error.message.includes(key), error.message);
  } finally {
    await gateway.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an apiKey option is sent as a bearer header and shown nowhere", async () => {
  const apiKey = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  const seen = { authorization: [] as (string | null)[] };
  const sandbox = serveSubgraph();
  const gateway = serveGateway(sandbox.endpoint, seen);
  try {
    const sg = new Subgraph(`${gateway.url}/subgraphs/id/ocean`, { progress: false, apiKey });
    const table = await sg.globalStatistics();
    assert.ok(seen.authorization.length > 0);
    assert.ok(seen.authorization.every((header) => header === `Bearer ${apiKey}`));
    assert.ok(!JSON.stringify(provenance(table)).includes(apiKey));
    assert.ok(!provenanceLine(table)!.includes(apiKey));
  } finally {
    await gateway.close();
    await sandbox.close();
  }
});
