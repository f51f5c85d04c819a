import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import type { ExpressionSearchOptions } from "../../lib/expressions/mod.ts";
import {
  type ExpressionSandbox,
  type ExpressionSandboxOptions,
  startExpressionSandbox,
} from "../../lib/sandbox/expressions/mod.ts";

/** A sandbox and a fast client (pacing off, silent), closed after `body`. */
export async function withSandbox(
  body: (
    context: {
      sandbox: ExpressionSandbox;
      client: ExpressionSearch;
      warnings: string[];
      urls: URL[];
    },
  ) => Promise<void>,
  options: { sandbox?: ExpressionSandboxOptions; client?: ExpressionSearchOptions } = {},
): Promise<void> {
  const sandbox = startExpressionSandbox({ size: 3000, ...options.sandbox });
  const warnings: string[] = [];
  const urls: URL[] = [];
  const inner = options.client?.fetch ?? fetch;
  const client = new ExpressionSearch(sandbox.url, {
    minIntervalMs: 0,
    concurrency: 4,
    progress: false,
    warn: (message) => warnings.push(message),
    ...options.client,
    fetch: (input, init) => {
      urls.push(new URL(String(input instanceof Request ? input.url : input)));
      return inner(input, init);
    },
  });
  try {
    await body({ sandbox, client, warnings, urls });
  } finally {
    await sandbox.close();
  }
}
