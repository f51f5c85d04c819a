/**
 * `tidepool orders --datatoken` takes a datatoken's symbol when exactly one
 * datatoken has it, and refuses one that several have naming each address
 * (child processes against the sandbox, whose seed has both kinds).
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { runTidepool } from "./_run_cli.ts";

Deno.test("tidepool orders --datatoken SYMBOL: one datatoken's orders, or the candidates named", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-symbol-" });
  const subgraph = new Subgraph(sandbox.urls.subgraph, { progress: false });
  try {
    const tokens = (await subgraph.tokens({ isDatatoken: true })).objects() as {
      address: string;
      symbol: string;
    }[];
    const bySymbol = Map.groupBy(tokens, (token) => token.symbol);
    const orders = await subgraph.orders();
    const ordered = new Set(orders.array("datatoken") as string[]);
    const unique = tokens.find((token) =>
      bySymbol.get(token.symbol)!.length === 1 && ordered.has(token.address)
    )!;
    const shared = [...bySymbol.values()].find((group) => group.length > 1)!;
    const run = (datatoken: string, to: string) =>
      runTidepool(["orders", sandbox.urls.subgraph, "--datatoken", datatoken, "--to", to], {
        cwd: dir,
      });

    const bySymbolRun = await run(unique.symbol, "by-symbol.csv");
    assert.equal(bySymbolRun.code, 0, bySymbolRun.stderr);
    const byAddressRun = await run(unique.address, "by-address.csv");
    assert.equal(byAddressRun.code, 0, byAddressRun.stderr);
    const [a, b] = [
      await Deno.readTextFile(`${dir}/by-symbol.csv`),
      await Deno.readTextFile(`${dir}/by-address.csv`),
    ];
    assert.equal(a, b, "the same orders by symbol as by address");
    assert.ok(a.trim().split("\n").length > 1, "it has orders");

    const ambiguous = await run(shared[0].symbol, "shared.csv");
    assert.equal(ambiguous.code, 2, ambiguous.stderr);
    assert.match(ambiguous.stderr, new RegExp(`${shared.length} datatokens have this symbol`));
    for (const token of shared) assert.ok(ambiguous.stderr.includes(token.address));

    const unknown = await run("NO-SUCH-SYMBOL-1", "unknown.csv");
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /no datatoken has this symbol/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
