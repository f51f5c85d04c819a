/** Shared helpers of the archive tests. */

import { Archive, type ArchiveOptions } from "../../lib/archive/mod.ts";
import { type ArchiveSandbox, startArchiveSandbox } from "../../lib/sandbox/archive/mod.ts";

/** Runs a test body against a fresh sandbox, always closing it. */
export async function withSandbox(body: (sandbox: ArchiveSandbox) => Promise<void>) {
  const sandbox = await startArchiveSandbox();
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** An Archive on the sandbox, silent, collecting warnings. */
export function archiveOn(
  sandbox: ArchiveSandbox,
  options: ArchiveOptions = {},
): { archive: Archive; warnings: string[] } {
  const warnings: string[] = [];
  const archive = new Archive(sandbox.url, {
    account: "shinano",
    db: "letters",
    progress: false,
    retry: false,
    warn: (message) => warnings.push(message),
    ...options,
  });
  return { archive, warnings };
}
