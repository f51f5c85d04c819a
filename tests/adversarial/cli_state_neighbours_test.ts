/**
 * The files a harvest keeps beside its state (`<state>.pending`, the spool
 * `<state>.records.ndjson`, the ledger `<state>.output.json`, and the same
 * beside the pending copy) are named after `--state`, which the user
 * chooses: `--state letters` keeps `letters.records.ndjson` and
 * `letters.output.json`, names a user's own files may well have. A user's
 * file at one of those names is refused before any request and kept byte
 * for byte, by a first run, by the next run and by `--restart`.
 */

import assert from "node:assert/strict";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { hostileOai } from "./_hostile_oai.ts";
import { capture, snapshot } from "./_cli_capture.ts";

/** A user's files at each name kept beside the state `letters`. */
const USERS: Record<string, string> = {
  "letters.records.ndjson": '{"id": 1, "text": "my transcription"}\n',
  "letters.output.json": '{"my": "report"}\n',
  "letters.pending": "a draft\n",
  "letters.pending.records.ndjson": '{"id": 2}\n',
  "letters.pending.output.json": "[1, 2, 3]\n",
};

Deno.test("tidepool harvest: a user's file named like one kept beside --state is refused and kept", async (t) => {
  await using oai = hostileOai([{ identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z" }]);
  for (const [name, text] of Object.entries(USERS)) {
    for (const how of ["a first run", "the next run", "--restart"]) {
      await t.step(`${name}, ${how}`, async () => {
        const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-state-neighbours-" });
        try {
          const args = ["harvest", oai.url, "--to", `${dir}/out.csv`, "--state"];
          if (how !== "a first run") {
            const first = await capture([...args, `${dir}/letters`]);
            assert.equal(first.code, 0, first.stderr);
          }
          await Deno.writeTextFile(`${dir}/${name}`, text);
          const before = await snapshot(dir);
          const asked = oai.requests.length;
          const run = await capture([
            ...args,
            `${dir}/letters`,
            ...(how === "--restart" ? ["--restart"] : []),
          ]);
          assert.equal(run.code, EXIT.usage, run.stderr);
          assert.match(run.stderr, new RegExp(`${name.replaceAll(".", "\\.")}\\b`));
          assert.equal(oai.requests.length, asked, "no request");
          const after = await snapshot(dir);
          assert.equal(after[name], text, "the user's bytes are kept");
          // Nothing else changed either (the lock file a run makes aside).
          delete after["letters.lock"];
          delete before["letters.lock"];
          assert.deepEqual(after, before);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  }
});
