import assert from "node:assert/strict";
import { withNode } from "./_helpers.ts";

Deno.test("the author filter is exact text, as documented: letter case counts", async () => {
  await withNode({ count: 600 }, async (node, sandbox, warnings) => {
    const author = sandbox.ddos[0].metadata.author!;
    const expected = sandbox.ddos.filter((d) =>
      d.metadata.author === author && d.indexedMetadata!.nft!.state !== 5
    ).length;
    assert.ok(expected > 0);
    assert.equal((await node.searchAssets({ author })).numRows(), expected);
    const lower = await node.searchAssets({ author: author.toLowerCase() });
    assert.equal(lower.numRows(), 0, `${author.toLowerCase()} matched ${author}`);
    const either = await node.searchAssets({ author: [author.toUpperCase(), author] });
    assert.deepEqual([...new Set(either.array("author"))], [author]);
    assert.deepEqual(warnings, []);
  });
});
