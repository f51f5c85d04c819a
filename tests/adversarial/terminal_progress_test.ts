/**
 * Every line that reaches a terminal is inert, one step to the side of the
 * error lines and tables: the progress line redrawn on stderr. Its label
 * and detail carry what a server chose (a compute job's id and `statusText`
 * from the node in `waitForJob`, an upload's `status` from the archive in
 * its conversion poll), so a status holding a clipboard write (OSC 52), a
 * screen clear, a bidirectional override or a line end must reach the
 * terminal as visible escapes. Checked on the bytes a child wrote to its
 * stderr, the terminal sink driven as a client drives it.
 */

import assert from "node:assert/strict";

const PROGRESS = new URL("../../lib/progress/mod.ts", import.meta.url).href;

const HOSTILE: [string, string][] = [
  ["a clipboard write (OSC 52)", "queued\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\u0007"],
  ["a screen clear and cursor home", "running\u001b[2J\u001b[H"],
  ["a bidirectional override", "done\u202efdp.exe"],
  ["a line end forging a line of its own", "ok\nreproduced: 1 of 1"],
];

/** The bytes the child's progress sink wrote for a task labelled and detailed by `hostile`. */
async function progressBytes(hostile: string): Promise<string> {
  const script = `
    import { startProgress, terminalProgress } from ${JSON.stringify(PROGRESS)};
    const hostile = ${JSON.stringify(hostile)};
    const task = startProgress(terminalProgress(0), "waitForJob " + hostile, { unit: "polls" });
    task.update(1, { detail: hostile });
    task.finish(hostile);`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--frozen", script],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stderr);
}

for (const [what, hostile] of HOSTILE) {
  Deno.test(`a progress line shows ${what} from a server inert`, async () => {
    const written = await progressBytes(hostile);
    // The sink's own redraw (carriage return, erase line) starts each line; the last ends in a line feed.
    const draws = written.split("\r\u001b[2K").slice(1);
    assert.ok(draws.length >= 3, JSON.stringify(written));
    for (const [index, draw] of draws.entries()) {
      const text = index === draws.length - 1 ? draw.replace(/\n$/, "") : draw;
      // deno-lint-ignore no-control-regex
      const active = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
      assert.doesNotMatch(text, active, `draw ${index + 1}: ${JSON.stringify(draw)}`);
    }
    assert.match(written, /waitForJob /, "the label is shown");
  });
}
