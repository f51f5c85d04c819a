/**
 * A 404 from an address that is not a subgraph endpoint says what a
 * subgraph's address looks like, instead of "check the identifier"; one
 * from a subgraph's address says the subgraph is not there.
 */

import assert from "node:assert/strict";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { NotFoundError } from "../../lib/errors/errors.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

Deno.test("a 404 tells an address without a subgraph's path from a subgraph that is not there", async () => {
  const sandbox = serveSubgraph();
  try {
    const quiet = { retry: false as const, progress: false as const };
    const bare = await new Subgraph(sandbox.url, quiet).orders().catch((error) => error);
    assert.ok(bare instanceof NotFoundError, String(bare));
    assert.match(
      bare.message,
      /^Not a subgraph endpoint: POST http:\/\/127\.0\.0\.1:\d+\/? answered 404/,
    );
    assert.match(
      bare.message,
      /What to do: Give the subgraph's own address: \/subgraphs\/name\/<owner>\/<name> or \/subgraphs\/id\/<id> on a graph-node, \/api\/<key>\/subgraphs\/id\/<id> on a gateway/,
    );
    assert.doesNotMatch(bare.message, /Check the identifier/);

    const missing = await new Subgraph(`${sandbox.url}/subgraphs/name/nobody/nothing`, quiet)
      .orders().catch((error) => error);
    assert.ok(missing instanceof NotFoundError, String(missing));
    assert.match(
      missing.message,
      /^No such subgraph: POST .*\/subgraphs\/name\/nobody\/nothing answered 404/,
    );
    assert.match(missing.message, /Check the subgraph's name or id/);
  } finally {
    await sandbox.close();
  }
});
