/**
 * State files that explain themselves: a harvest whose repository moved
 * (another address after a restart) is refused naming the state file the
 * user keeps, `letters.csv.harvest.json` (never only its pending copy), and
 * `--restart` starts it over; and `tidepool sandbox --port N` starts the
 * services on N, N+1, ... so the same URLs survive a restart. Runs
 * `tidepool` as a child process.
 */

import assert from "node:assert/strict";
import { startArchiveSandbox } from "../../lib/sandbox/archive/mod.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { runTidepool, spawnTidepool } from "./_run_cli.ts";

Deno.test("tidepool harvest: a state of another harvest names <file>.harvest.json and --restart starts over", async () => {
  await using first = await startArchiveSandbox();
  await using moved = await startArchiveSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-restart-" });
  const oai = (url: string) => `${url}/shinano/letters/api/oai`;
  try {
    const night1 = await runTidepool(["harvest", oai(first.url), "--to", "letters.csv"], {
      cwd: dir,
    });
    assert.equal(night1.code, 0, night1.stderr);
    const state = await Deno.readFile(`${dir}/letters.csv.harvest.json`);
    for (const attempt of [1, 2]) {
      const run = await runTidepool(["harvest", oai(moved.url), "--to", "letters.csv"], {
        cwd: dir,
      });
      assert.equal(run.code, 2, `attempt ${attempt}: ${run.stderr}`);
      assert.match(run.stderr, /harvest state letters\.csv\.harvest\.json belongs to another/);
      assert.doesNotMatch(run.stderr, /\.pending belongs/);
      assert.match(run.stderr, /--restart/);
      assert.deepEqual(await Deno.readFile(`${dir}/letters.csv.harvest.json`), state, "kept");
    }
    const restart = await runTidepool(
      ["harvest", oai(moved.url), "--to", "letters.csv", "--restart"],
      { cwd: dir },
    );
    assert.equal(restart.code, 0, restart.stderr);
    assert.match(restart.stderr, /starting over \(removed .*letters\.csv\.harvest\.json/);
    const saved = JSON.parse(await Deno.readTextFile(`${dir}/letters.csv.harvest.json`));
    assert.equal(saved.endpoint, oai(moved.url));
    assert.ok((await readTable(`${dir}/letters.csv`)).numRows() > 0);
    const night3 = await runTidepool(["harvest", oai(moved.url), "--to", "letters.csv"], {
      cwd: dir,
    });
    assert.equal(night3.code, 0, night3.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A base port with it and the next three free now (bound, then closed). */
function freePorts(): number {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    const held: Deno.Listener[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(Deno.listen({ hostname: "127.0.0.1", port: base + i }));
      return base;
    } catch {
      // taken: try another
    } finally {
      for (const listener of held) listener.close();
    }
  }
  throw new Error("no four free ports in a row");
}

/** Starts `tidepool sandbox`, reads its export lines, stops it with SIGINT. */
async function sandboxUrls(args: string[]): Promise<Record<string, string>> {
  const child = spawnTidepool(args);
  const stderr = child.stderr.pipeThrough(new TextDecoderStream());
  const urls: Record<string, string> = {};
  try {
    let text = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      for (const [, name, url] of text.matchAll(/^export (\w+)=(\S+)$/gm)) urls[name] = url;
      if (Object.keys(urls).length === 4) break;
    }
  } finally {
    try {
      child.kill("SIGINT");
    } catch {
      // already ended
    }
    const [status, errors] = await Promise.all([child.status, Array.fromAsync(stderr)]);
    assert.equal(status.code, 0, errors.join(""));
  }
  return urls;
}

Deno.test("tidepool sandbox --port N: the services on N, N+1, N+2, N+3, the same after a restart", async () => {
  const base = freePorts();
  const once = await sandboxUrls(["sandbox", "--port", String(base)]);
  assert.deepEqual(
    Object.values(once).map((url) => Number(new URL(url).port)).sort(),
    [base, base + 1, base + 2, base + 3],
  );
  const again = await sandboxUrls(["sandbox", "--port", String(base)]);
  assert.deepEqual(again, once, "the same URLs after a restart");
  const own = await sandboxUrls(["sandbox", "--port", String(base), "--archive-port", "0"]);
  assert.notEqual(own.TIDEPOOL_ARCHIVE, once.TIDEPOOL_ARCHIVE);
});
