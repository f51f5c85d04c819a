/**
 * The sandbox node ignores query parameters and body fields the spec does
 * not list, as ocean-node does, and records them. tidepool must send none:
 * a misspelt or invented field would be silently ignored by a real node.
 */

import assert from "node:assert/strict";
import type { OceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

/** Fails when any request to the sandbox carried a field the spec does not list. */
export function assertSentOnlyListed(sandbox: Pick<OceanSandbox, "unlisted">): void {
  assert.deepEqual(
    sandbox.unlisted,
    [],
    `tidepool sent fields the node spec does not list (a real node ignores them): ${
      sandbox.unlisted.map((use) => `${use.method} ${use.path}: ${use.names.join(", ")}`)
        .join("; ")
    }`,
  );
}
