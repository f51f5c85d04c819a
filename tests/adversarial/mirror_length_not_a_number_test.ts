/**
 * A resource list whose `length` is not a number (`length="unknown"`,
 * `length="Infinity"`) and a body without end: the listed length replaces
 * the caller's `maxBytes` as the body's cap, and a cap that is NaN or
 * Infinity holds nothing, so the body is written to the folder until the
 * disk is full. The bytes the server got out before the mirror hung up are
 * counted at the server, not taken from tidepool's report.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet, treeOf } from "./_hostile_resourcesync.ts";

const MIB = 1024 * 1024;
/** The most the endless body sends: the test's own bound. */
const SERVER_BOUND = 48 * MIB;

for (const length of ["unknown", "Infinity"]) {
  Deno.test(`a listed length="${length}" does not lift maxBytes off an endless body`, async () => {
    let sent = 0;
    const { server } = hostileResourceSync(
      () => [{ loc: "/data/endless.bin", length }],
      (path) => {
        if (path !== "/data/endless.bin") return undefined;
        const chunk = new Uint8Array(64 * 1024).fill(1);
        return new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent >= SERVER_BOUND) return controller.close();
              sent += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
      },
    );
    const root = await Deno.makeTempDir();
    try {
      const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
      await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files`, maxBytes: MIB })
        .catch(() => {});
      assert.ok(
        sent < 8 * MIB,
        `the mirror read ${(sent / MIB).toFixed(0)} MiB of a body capped at 1 MiB`,
      );
      assert.deepEqual(await treeOf(`${root}/files`).catch(() => []), []);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
