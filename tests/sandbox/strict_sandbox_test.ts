/**
 * The sandboxes answer only what their specs define unless told to be
 * lenient, and a shapes seed varies what the specs leave "not shown".
 */

import assert from "node:assert/strict";
import {
  startArchiveSandbox,
  startExpressionSandbox,
  startOceanSandbox,
} from "../../lib/sandbox/mod.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { SANDBOX_WALLET_ADDRESS } from "../../lib/sandbox/ocean/mod.ts";

const WRITE = { authorization: `Bearer ${SANDBOX_KEYS.shinanoWrite}` };

Deno.test("strict sandboxes refuse (the node: record) what the specs do not list; lenient ones let it pass", async () => {
  for (const mode of ["strict", "lenient"] as const) {
    const refused = mode === "strict";
    const ocean = startOceanSandbox({ count: 5, mode, compute: false });
    const expressions = startExpressionSandbox({ size: 100, mode });
    const archive = await startArchiveSandbox({ mode });
    try {
      const nonce = await fetch(
        `${ocean.url}/api/services/nonce?userAddress=${SANDBOX_WALLET_ADDRESS}&chainId=1`,
      );
      // The node ignores it, as ocean-node's routes do; a strict sandbox records it.
      assert.equal(nonce.status, 200, `ocean, ${mode}`);
      await nonce.body?.cancel();
      assert.deepEqual(
        ocean.unlisted,
        refused ? [{ method: "GET", path: "/api/services/nonce", names: ["chainId"] }] : [],
        `ocean, ${mode}`,
      );

      const hits = await fetch(`${expressions.url}/api/expressions?intensity=high`);
      assert.equal(hits.status, refused ? 400 : 200, `expressions, ${mode}`);
      if (refused) assert.deepEqual(await hits.json(), { error: "Unknown parameter: intensity" });
      else await hits.body?.cancel();

      const created = await fetch(`${archive.url}/api/shinano/databases`, {
        method: "POST",
        headers: { ...WRITE, "content-type": "application/json" },
        body: JSON.stringify({ slug: `db-${mode}`, title: "t", is_public: true }),
      });
      assert.equal(created.status, refused ? 400 : 201, `archive body, ${mode}`);
      if (refused) assert.deepEqual(await created.json(), { error: "Unknown field: is_public" });
      else await created.body?.cancel();

      const listed = await fetch(`${archive.url}/shinano/letters/api/resources?limit=5`);
      assert.equal(listed.status, refused ? 400 : 200, `archive parameter, ${mode}`);
      await listed.body?.cancel();

      const root = await fetch(`${archive.url}/api/shinano/dl/letters`, { headers: WRITE });
      assert.equal(root.status, refused ? 404 : 200, `archive unlisted endpoint, ${mode}`);
      await root.body?.cancel();
    } finally {
      await Promise.all([ocean.close(), expressions.close(), archive.close()]);
    }
  }
});

Deno.test("shapes seeds 1, 2 and 3 give the three catalogue envelopes and fields the spec does not list", async () => {
  const envelopes: string[] = [];
  for (const shapesSeed of [0, 1, 2, 3]) {
    const archive = await startArchiveSandbox({ shapesSeed });
    const expressions = startExpressionSandbox({ size: 50, shapesSeed });
    try {
      const body = await (await fetch(`${archive.url}/api/accounts`)).json();
      envelopes.push(
        Array.isArray(body) ? "list" : Array.isArray(body.accounts) ? "accounts" : "databases",
      );
      const [hit] = (await (await fetch(`${expressions.url}/api/expressions?limit=1`)).json()).hits;
      const listed = ["id", "pid", "title", "surface", "context", "emotion", "body_part", "valence"]
        .concat(["intensity", "character", "pages", "author", "year", "genre"]);
      const unlisted = Object.keys(hit).filter((k) => !listed.includes(k));
      assert.equal(unlisted.length > 0, shapesSeed !== 0, `seed ${shapesSeed}: ${unlisted}`);
    } finally {
      await Promise.all([archive.close(), expressions.close()]);
    }
  }
  assert.deepEqual(envelopes, ["databases", "list", "accounts", "databases"]);
});
