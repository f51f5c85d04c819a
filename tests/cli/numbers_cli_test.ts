/**
 * Whole-number flags of `tidepool` read exactly or refused before anything
 * is sent: a number past 2^53 (which JavaScript would round), past the
 * protocol's own range (a GraphQL Int block), or not written in digits.
 * Runs `runCli` in this process against a loopback server that counts
 * what it is asked.
 */

import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/run_cli.ts";
import type { CommandIo } from "../../lib/cli/_command.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";

async function capture(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const io: CommandIo = {
    stdout: () => Promise.resolve(),
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: false,
    env: () => undefined,
  };
  return { code: await runCli(args, io), stderr };
}

Deno.test("tidepool: whole numbers past their range or not in digits are refused before any request", async (t) => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(req.url);
    return new Response("no", { status: 503 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const subgraph = `${origin}/subgraphs/name/a/b`;
  try {
    for (
      const [args, shown] of [
        [["orders", subgraph, "--block", "99999999999999999999"], "99999999999999999999"],
        [["orders", subgraph, "--block", "9007199254740993"], "9007199254740993"],
        [["orders", subgraph, "--block", "2147483648"], "2147483648"],
        [["orders", subgraph, "--block", "1e3"], "1e3"],
        [["orders", subgraph, "--block", "0x10"], "0x10"],
        [["orders", subgraph, "--block", "12.0"], "12.0"],
        [["assets", origin, "--concurrency", "99999999999999999999"], "99999999999999999999"],
        [["assets", origin, "--concurrency", "0"], "0"],
        [["harvest", `${origin}/oai`, "--concurrency", "18446744073709551617"], "1844674407"],
      ] as const
    ) {
      await t.step(args.slice(2).join(" "), async () => {
        const before = seen.length;
        const run = await capture([...args, "--to", "-"]);
        assert.equal(run.code, EXIT.usage, run.stderr);
        assert.match(run.stderr, new RegExp(`Invalid ${args[2]} ${shown}`));
        assert.match(run.stderr, /expected a whole number from/);
        assert.equal(seen.length, before, "nothing was sent");
      });
    }
  } finally {
    await server.shutdown();
  }
});
