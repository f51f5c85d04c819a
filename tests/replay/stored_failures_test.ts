/**
 * The three ways a recording used to break replay, each against a sandbox:
 * the refused page-size probe of `searchAll`, a stored 404, and errors
 * inside HTTP 200 (GraphQL `errors`, OAI-PMH `error`) kept as if answers.
 */

import assert from "node:assert/strict";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { NotFoundError, ProtocolError } from "../../lib/http/mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { SANDBOX_NOW } from "../../lib/sandbox/sandbox_now.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";

/** The recorded bodies (decoded) served to live clients that match a pattern, by file. */
async function storedBodiesMatching(dir: string, pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".json")) {
        const file = JSON.parse(await Deno.readTextFile(path));
        const live = !file.replayOnly;
        if (live && typeof file.bodyBase64 === "string" && pattern.test(atob(file.bodyBase64))) {
          found.push(path);
        }
      }
    }
  };
  await walk(dir);
  return found;
}

const quiet = { progress: false as const, warn: () => {}, minIntervalMs: 0 };
const offline: typeof fetch = (input) =>
  Promise.reject(new Error(`network used in replay mode: ${input}`));

/** A fetch that counts requests whose URL matches. */
function counting(pattern: RegExp) {
  const counter = {
    count: 0,
    fetch: ((input, init) => {
      if (pattern.test(String(input instanceof Request ? input.url : input))) counter.count++;
      return fetch(input, init);
    }) as typeof fetch,
  };
  return counter;
}

Deno.test("searchAll replays offline: the discovered page size is in the recording, the probe is not resent", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = startExpressionSandbox({ size: 600 });
  const url = sandbox.url;
  let recorded;
  try {
    const probe = counting(/limit=1000/);
    const first = new ExpressionSearch(url, {
      ...quiet,
      fetch: probe.fetch,
      cache: { dir, mode: "record" },
    });
    recorded = await first.searchAll();
    assert.ok(recorded.numRows() > 100, "more than one page at the largest accepted size");
    assert.equal(probe.count, 1, "the first recording probes once");
    // A new client (a new kernel) recording again sends no probe.
    const again = new ExpressionSearch(url, {
      ...quiet,
      fetch: probe.fetch,
      cache: { dir, mode: "record" },
    });
    await again.searchAll();
    assert.equal(probe.count, 1, "a later recording reads the size from the recording");
  } finally {
    await sandbox.close();
  }
  try {
    const replay = new ExpressionSearch(url, {
      ...quiet,
      fetch: offline,
      cache: { dir, mode: "replay" },
    });
    const replayed = await replay.searchAll();
    assert.deepEqual(replayed.objects(), recorded.objects());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a DDO looked up before it was indexed is found once indexed, even by a new client", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = startOceanSandbox({ count: 20 });
  try {
    const cache = { dir, mode: "record" as const };
    const did = `did:op:${"5".repeat(64)}`;
    const before = new OceanNode(sandbox.url, { ...quiet, cache });
    await assert.rejects(before.ddo(did), NotFoundError);
    await assert.rejects(before.ddoState({ did }), NotFoundError);
    sandbox.publish({ ...sandbox.ddos[0], id: did });
    const after = new OceanNode(sandbox.url, { ...quiet, cache });
    assert.equal((await after.ddo(did)).id, did);
    assert.equal((await after.ddoState({ did })).valid, true);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GraphQL errors inside HTTP 200 are not stored: the query succeeds once the outage passed", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = serveSubgraph({ orders: 50 });
  try {
    const cache = { dir, mode: "record" as const };
    sandbox.faults.graphqlErrors = ["Store error: database unavailable"];
    await assert.rejects(
      new Subgraph(sandbox.endpoint, { ...quiet, cache }).orders(),
      ProtocolError,
    );
    sandbox.faults.graphqlErrors = undefined;
    const orders = await new Subgraph(sandbox.endpoint, { ...quiet, cache }).orders();
    assert.equal(orders.numRows(), 50);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("OAI-PMH errors inside HTTP 200 are not stored, noRecordsMatch is", async () => {
  const dir = await Deno.makeTempDir();
  // After the sandbox's newest datestamp (its clock), yet not in the future, which is refused.
  const after = new Date(SANDBOX_NOW + 86_400_000).toISOString().slice(0, 10);
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const endpoint = `${sandbox.url}/acme/letters/api/oai`;
  try {
    const cache = { dir, mode: "record" as const };
    // The token expires once: the harvest restarts and gets every record, and
    // the badResumptionToken answer (HTTP 200) is kept for replay only, never
    // served to a live client.
    sandbox.providers["acme/letters"].faults.expireTokenOnPage = 1;
    const records = await new OaiPmh(endpoint, { ...quiet, cache })
      .harvest({ metadataPrefix: "oai_dc" });
    assert.equal(records.numRows(), 250);
    assert.deepEqual(await storedBodiesMatching(dir, /badResumptionToken/), []);
    // Once the repository serves its tokens again, a new client recording
    // follows them straight through: the refused token was not kept, so it
    // is asked again and this answer stored.
    sandbox.providers["acme/letters"].faults.expireTokenOnPage = undefined;
    const again = await new OaiPmh(endpoint, { ...quiet, cache })
      .harvest({ metadataPrefix: "oai_dc" });
    assert.equal(again.numRows(), 250);
    const empty = await new OaiPmh(endpoint, { ...quiet, cache })
      .harvest({ metadataPrefix: "oai_dc", from: after });
    assert.equal(empty.numRows(), 0);
  } finally {
    await sandbox.close();
  }
  try {
    // Everything above replays with no network, the empty answer included.
    const replay = new OaiPmh(endpoint, {
      ...quiet,
      fetch: offline,
      cache: { dir, mode: "replay" },
    });
    assert.equal((await replay.harvest({ metadataPrefix: "oai_dc" })).numRows(), 250);
    assert.equal(
      (await replay.harvest({ metadataPrefix: "oai_dc", from: after })).numRows(),
      0,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
