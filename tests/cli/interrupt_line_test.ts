/**
 * Ctrl-C on a terminal: the progress line drawn so far is cleared before
 * the one line that says the run stopped and that the same command resumes
 * it. Runs `runCli` in this process with a terminal's standard error; the
 * interrupt is delivered once the server holds the run's first request.
 */

import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/run_cli.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";

const CLEAR = "\r\x1b[2K";

Deno.test("tidepool: Ctrl-C clears the progress line, then says the run stopped", async () => {
  const asked = Promise.withResolvers<void>();
  const held = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    asked.resolve();
    await held.promise;
    return new Response("", { status: 503 });
  });
  let stop: (() => number) | undefined;
  let stderr = "";
  const run = runCli(["expressions", `http://127.0.0.1:${server.addr.port}`, "--to", "-"], {
    stdout: async () => {},
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: true,
    env: () => undefined,
    onInterrupt: (onStop) => {
      stop = onStop;
      return () => stop = undefined;
    },
  });
  try {
    await asked.promise;
    assert.ok(stop, "the run listens for Ctrl-C while it runs");
    assert.ok(stderr.includes(CLEAR), "a progress line was drawn");
    const drawn = stderr.length;
    assert.equal(stop(), EXIT.interrupted);
    const after = stderr.slice(drawn);
    assert.ok(after.startsWith(CLEAR), JSON.stringify(after));
    assert.match(
      after.slice(CLEAR.length),
      /^tidepool expressions: Stopped \(Ctrl-C\)\. Run the same command to resume: [^\n]*\n$/,
    );
  } finally {
    held.resolve();
    await run;
    await server.shutdown();
  }
  assert.equal(stop, undefined, "no longer listened for once the run ended");
});
