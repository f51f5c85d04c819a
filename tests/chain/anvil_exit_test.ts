/**
 * A script that starts anvil and never calls close() must not leave anvil
 * running: not when it ends by itself, not when it is terminated or killed.
 */

import assert from "node:assert/strict";
import { isRunning } from "./_anvil_processes.ts";

const repository = new URL("../../", import.meta.url).pathname;
const startAnvil = new URL("../../lib/sandbox/chain/start_anvil.ts", import.meta.url).href;

/** Runs `body` after starting anvil in a fresh Deno process; returns the process and anvil's pid. */
async function scriptWithAnvil(body: string) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/script.ts`;
  await Deno.writeTextFile(
    path,
    `import { startAnvil } from "${startAnvil}";\n` +
      `const chain = await startAnvil();\nconsole.log("anvil " + chain.pid);\n${body}\n`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", "--config", `${repository}deno.json`, path],
    cwd: repository,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/anvil (\d+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  reader.releaseLock();
  const pid = Number(/anvil (\d+)/.exec(seen)?.[1]);
  return { child, pid, dir };
}

/**
 * Whether anvil (not our child, so its exit cannot be awaited) is gone,
 * looked for until a bound: the watchdog kills it within milliseconds of the
 * script's end, a loaded machine within a second or two; 30 s is only
 * reached by an anvil left running.
 */
async function gone(pid: number): Promise<boolean> {
  const until = Date.now() + 30_000;
  while (Date.now() < until && await isRunning(pid)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !(await isRunning(pid));
}

for (
  const [how, body, signal] of [
    // It ends by itself once the test has seen anvil running (the test writes ./go).
    [
      "the script ends without close()",
      'while (!(await Deno.stat(new URL("./go", import.meta.url)).catch(() => undefined))) {\n' +
      "  await new Promise((resolve) => setTimeout(resolve, 10));\n}",
      undefined,
    ],
    ["the script is terminated (SIGTERM)", "setInterval(() => {}, 1000);", "SIGTERM"],
    ["the script is killed (SIGKILL)", "setInterval(() => {}, 1000);", "SIGKILL"],
  ] as const
) {
  Deno.test(`anvil stops when ${how}`, async () => {
    const { child, pid, dir } = await scriptWithAnvil(body);
    // A bound on the whole run: the script starts anvil in a second or two, a few on a
    // loaded machine, and ends as soon as it sees ./go; only a script that hangs meets it.
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    try {
      assert.ok(pid > 0, "the script started anvil");
      assert.equal(await isRunning(pid), true);
      await Deno.writeTextFile(`${dir}/go`, "");
      if (signal) child.kill(signal);
      const status = await child.status;
      assert.equal(signal ? status.signal : status.code, signal ?? 0, "the script ended");
      assert.equal(await gone(pid), true, `anvil ${pid} is still running`);
    } finally {
      clearTimeout(timer);
      try {
        child.kill("SIGKILL");
      } catch { /* already ended */ }
      await child.status;
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
      // Never leave one behind, whatever the assertion said.
      if (pid > 0 && await isRunning(pid)) Deno.kill(pid, "SIGKILL");
    }
  });
}
