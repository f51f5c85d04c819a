import assert from "node:assert/strict";
import { OceanNode } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

Deno.test("waitForIndexed sees the node change even with the cache in record mode", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = startOceanSandbox({ count: 60 });
  try {
    const node = new OceanNode(sandbox.url, {
      progress: false,
      warn: () => {},
      cache: { dir, mode: "record" },
    });
    const ddo = { ...sandbox.ddos[0], id: `did:op:${"7".repeat(64)}` };
    sandbox.publish(ddo, { pollsBeforeSeen: 2 });
    const indexed = await node.waitForIndexed(ddo.id, { timeoutMs: 5_000, pollMs: 20 });
    assert.equal(indexed.id, ddo.id);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
