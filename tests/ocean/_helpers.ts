/** Shared helpers of the Ocean tests: a quiet client on a sandbox node. */

import { OceanNode } from "../../lib/ocean/mod.ts";
import {
  type OceanSandbox,
  type OceanSandboxOptions,
  startOceanSandbox,
} from "../../lib/sandbox/ocean/mod.ts";
import { assertSentOnlyListed } from "./_sent_fields.ts";

/**
 * Runs `body` with a sandbox node and a quiet client, closing the node
 * afterwards; fails when tidepool sent a field the node spec does not list.
 */
export async function withNode(
  options: OceanSandboxOptions,
  body: (node: OceanNode, sandbox: OceanSandbox, warnings: string[]) => Promise<void>,
): Promise<void> {
  const sandbox = startOceanSandbox(options);
  const warnings: string[] = [];
  try {
    const node = new OceanNode(sandbox.url, {
      progress: false,
      retry: false,
      warn: (message) => warnings.push(message),
    });
    await body(node, sandbox, warnings);
    assertSentOnlyListed(sandbox);
  } finally {
    await sandbox.close();
  }
}
