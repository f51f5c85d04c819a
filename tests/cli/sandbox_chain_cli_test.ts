/**
 * `tidepool sandbox --chain` prints what any Ocean client needs: the node,
 * the chain's RPC and id, the contract addresses and a test key funded on
 * that chain, and the node lists its routes as ocean-node does.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("tidepool sandbox --chain prints the node, the chain, its contracts and a funded key", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--frozen",
      `--config=${ROOT}deno.json`,
      `${ROOT}cli.ts`,
      "sandbox",
      "--chain",
    ],
    env: childEnvironment({ NO_COLOR: "1" }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  const lines: string[] = [];
  try {
    // Read until the last line it prints; it then runs until stopped.
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    while (!lines.some((line) => line.startsWith("# its address:"))) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      lines.push(...parts);
    }
    reader.releaseLock();
    const value = (prefix: string) => lines.find((l) => l.startsWith(prefix))?.slice(prefix.length);
    const node = value("export TIDEPOOL_OCEAN_NODE=")!;
    const rpc = value("export TIDEPOOL_RPC=")!;
    assert.ok(node && rpc, lines.join("\n"));
    assert.equal(value("# chain id: "), "31337");
    const address = value("# its address: ")!;
    assert.match(
      value("# funded test key (100 ETH, 100 OCEAN, free compute): ")!,
      /^0x[0-9a-f]{64}$/,
    );

    const call = async (method: string, params: unknown[]) =>
      (await (await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })).json()).result;
    assert.ok(BigInt(await call("eth_getBalance", [address, "latest"])) > 0n, "the key is funded");
    for (
      const name of ["oceanToken", "dispenser", "fixedRateExchange", "erc721Factory", "router"]
    ) {
      const contract = value(`# ${name}: `);
      assert.match(String(contract), /^0x[0-9a-fA-F]{40}$/, name);
      assert.ok(
        (await call("eth_getCode", [contract, "latest"])).length > 2,
        `${name} is deployed`,
      );
    }
    const info = await (await fetch(`${node}/`)).json();
    assert.deepEqual(info.serviceEndpoints.initialize, ["GET", "/api/services/initialize"]);
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // already ended
    }
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel();
    await child.status;
  }
});
