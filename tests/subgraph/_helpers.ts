import { type SandboxSubgraph, serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { Subgraph, type SubgraphOptions } from "../../lib/subgraph/mod.ts";

/** One request the client sent: its query text and variables. */
export interface SentRequest {
  query: string;
  variables: Record<string, unknown>;
}

/** Starts a sandbox (12,000 orders), hands a client that records its requests, and closes it. */
export async function withSandbox(
  fn: (context: {
    sandbox: SandboxSubgraph;
    sg: Subgraph;
    sent: SentRequest[];
    warnings: string[];
  }) => Promise<void>,
  options: SubgraphOptions = {},
): Promise<void> {
  const sandbox = serveSubgraph();
  const sent: SentRequest[] = [];
  const warnings: string[] = [];
  const recording: typeof fetch = (input, init) => {
    if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  try {
    const sg = new Subgraph(sandbox.endpoint, {
      progress: false,
      warn: (message) => warnings.push(message),
      retry: { retries: 1, baseDelayMs: 5 },
      fetch: recording,
      ...options,
    });
    await fn({ sandbox, sg, sent, warnings });
  } finally {
    await sandbox.close();
  }
}

type Row = Record<string, unknown> & { id: string };

/** Sandbox rows sorted by a field then id, both in one direction, as graph-node sorts them. */
export function sortedIds(
  rows: readonly Row[],
  field: string,
  direction: "asc" | "desc" = "asc",
): string[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[field] as number | string;
    const y = b[field] as number | string;
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * sign;
  }).map((row) => row.id);
}
