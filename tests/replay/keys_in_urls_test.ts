/**
 * Keys in endpoint URLs, as repositories and gateways ask for them: an
 * OAI-PMH endpoint's own `?api-key=` goes with every verb, and a recorded
 * session with one key in the query and one in a gateway path leaves neither
 * in any file it wrote, and replays with other keys.
 */

import assert from "node:assert/strict";
import { tableDigest } from "../../lib/table/table_digest.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

/** Every file below a folder, with its text. */
async function filesBelow(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) { for (const [p, t] of await filesBelow(path)) found.set(p, t); }
    else found.set(path, new TextDecoder().decode(await Deno.readFile(path)));
  }
  return found;
}

Deno.test("a key in the query and one in the path: kept on every request, on no disk, replayed with others", async () => {
  const queryKeys = ["q7Kx2vN9pL4mR8sT1wY6", "z3Fh8jD5kQ2nB7cV4xM9"];
  const pathKeys = ["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "9a8b7c6d5e4f30211203f4e5d6c7b8a9"];
  const oaiSandbox = startOaiSandbox({ pageSize: 20, apiKey: queryKeys[0] });
  const subgraph = serveSubgraph();
  // A gateway on loopback: `/api/<key>/subgraphs/id/ocean` forwards to the sandbox subgraph.
  const gateway = serveLocal(async (request) => {
    if (!new URL(request.url).pathname.endsWith("/subgraphs/id/ocean")) {
      return new Response("subgraph not found", { status: 404 });
    }
    return await fetch(subgraph.endpoint, { method: "POST", body: await request.text() });
  }, { maxRequests: 200 });
  const dir = await Deno.makeTempDir();
  const sent: string[] = [];
  const watching: typeof fetch = (input, init) => {
    sent.push(input instanceof Request ? input.url : String(input));
    return fetch(input, init);
  };
  const session = async (mode: "record" | "replay", key: number) => {
    const cache = { dir: `${dir}/cache`, mode };
    const oai = new OaiPmh(`${oaiSandbox.url}/acme/letters/api/oai?api-key=${queryKeys[key]}`, {
      progress: false,
      fetch: watching,
      cache,
    });
    // The recording keeps a harvest state file too, which names the endpoint.
    const state = mode === "record" ? `${dir}/harvest-state.json` : undefined;
    const records = await oai.harvest({ metadataPrefix: "oai_dc", state });
    const sg = new Subgraph(`${gateway.url}/api/${pathKeys[key]}/subgraphs/id/ocean`, {
      progress: false,
      fetch: watching,
      cache,
    });
    const statistics = await sg.globalStatistics();
    return [await tableDigest(records), await tableDigest(statistics)];
  };
  try {
    const recorded = await session("record", 0);
    const oaiRequests = sent.filter((url) => url.includes("/api/oai"));
    assert.ok(oaiRequests.length >= 2, `${oaiRequests.length} OAI-PMH requests`);
    for (const url of oaiRequests) {
      assert.equal(new URL(url).searchParams.get("api-key"), queryKeys[0], url);
    }

    const written = await filesBelow(dir);
    assert.ok(written.size > 2, `${written.size} files recorded`);
    assert.ok(written.has(`${dir}/harvest-state.json`));
    for (const [path, text] of written) {
      for (const key of [queryKeys[0], pathKeys[0]]) {
        assert.ok(!text.includes(key) && !path.includes(key), `${key} in ${path}`);
      }
    }

    sent.length = 0;
    const replayed = await session("replay", 1);
    assert.deepEqual(sent, [], "the replay asked nothing of the network");
    assert.deepEqual(replayed, recorded);
  } finally {
    await gateway.close();
    await subgraph.close();
    await oaiSandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
