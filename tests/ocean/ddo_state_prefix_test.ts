/**
 * `ddoState` by the start of a DID, as the spec allows (`did` matched by
 * prefix): asked for only as `didPrefix`, so a truncated DID passed as a
 * whole one is refused before anything is sent, and the state a node
 * answers must be of the asset asked for.
 */

import assert from "node:assert/strict";
import { ProtocolError, TidepoolError } from "../../lib/errors/errors.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { withNode } from "./_helpers.ts";

Deno.test("ddoState({ didPrefix }) sends the start of the DID and reads the asset it names", async () => {
  await withNode({ count: 6 }, async (_node, sandbox) => {
    const sent: URL[] = [];
    const node = new OceanNode(sandbox.url, {
      progress: false,
      retry: false,
      fetch: (input, init) => {
        sent.push(new URL(String(input instanceof Request ? input.url : input)));
        return fetch(input, init);
      },
    });
    for (const ddo of sandbox.ddos.slice(0, 3)) {
      const prefix = ddo.id.slice(0, "did:op:".length + 12);
      const state = await node.ddoState({ didPrefix: prefix });
      assert.equal(state.did, ddo.id);
      assert.equal(state.valid, true);
      assert.equal(sent.at(-1)?.searchParams.get("did"), prefix, "the prefix itself is sent");
    }
  });
});

Deno.test("a truncated DID given as did, or a prefix that is no DID's start, is refused before sending", async () => {
  await withNode({ count: 3 }, async (node, sandbox) => {
    const before = sandbox.requestCount;
    const truncated = sandbox.ddos[0].id.slice(0, 30);
    await assert.rejects(() => node.ddoState({ did: truncated }), (error: unknown) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, /is not a whole DID/);
      assert.match(String(error.hint), /didPrefix/);
      return true;
    });
    for (const bad of ["did:op:", "did:op:XYZ", "op:abcd", `did:op:${"a".repeat(65)}`]) {
      await assert.rejects(() => node.ddoState({ didPrefix: bad }), /Invalid DID prefix/);
    }
    assert.equal(sandbox.requestCount, before, "nothing was sent");
  });
});

Deno.test("a node answering the state of another asset is refused, for a DID and for a prefix", async () => {
  const other = `did:op:${"cd".repeat(32)}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    Response.json({
      chainId: 11155111,
      did: other,
      id: other,
      nft: `0x${"1".repeat(40)}`,
      txId: `0x${"2".repeat(64)}`,
      valid: true,
      error: " ",
    }));
  try {
    const node = new OceanNode(`http://127.0.0.1:${server.addr.port}`, {
      progress: false,
      retry: false,
    });
    await assert.rejects(
      () => node.ddoState({ did: `did:op:${"ab".repeat(32)}` }),
      (error: unknown) => error instanceof ProtocolError && /another asset/.test(error.message),
    );
    await assert.rejects(
      () => node.ddoState({ didPrefix: "did:op:abab" }),
      (error: unknown) =>
        error instanceof ProtocolError && /starting did:op:abab/.test(error.message),
    );
    assert.equal((await node.ddoState({ didPrefix: "did:op:cdcd" })).did, other);
  } finally {
    await server.shutdown();
  }
});
