/**
 * Errors on the command line name flags and arguments, never the library's
 * options: the class is a library hint reaching the shell as it is (`pass
 * metadataPrefix`, `pass an apiKey`, the `sparql` template tag). Several
 * commands are run as child processes against the sandbox, each made to
 * fail in a way whose library error advises an option.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { runTidepool } from "./_run_cli.ts";

/** Words of the library's own API, which a shell user cannot type. */
const LIBRARY_WORDS =
  /\w+\(\)|template tag|\bapiKey\b|\bminBlock\b|\bmetadataPrefix\b|\ballowOtherHosts\b/;

Deno.test("tidepool: errors advise flags, not library options, for several commands", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-words-" });
  const archive = sandbox.urls.archive;
  const cases: [string, string[], RegExp][] = [
    ["harvest, a format the repository lacks", [
      "harvest",
      `${archive}/shinano/letters/api/oai`,
      "--prefix",
      "mods",
    ], /Give --prefix one of the formats/],
    ["sparql, a query with a syntax error", [
      "sparql",
      `${archive}/api/shinano/dl/letters/sparql`,
      "SELEC ?s WHERE { ?s ?p ?o }",
    ], /quoted SPARQL literals/],
    ["sparql, a private or missing database", [
      "sparql",
      `${archive}/api/shinano/dl/nowhere/sparql`,
      "ASK { ?s ?p ?o }",
    ], /--api-key-env NAME/],
  ];
  try {
    for (const [name, args, advice] of cases) {
      await t.step(name, async () => {
        const run = await runTidepool(args, { cwd: dir });
        assert.notEqual(run.code, 0);
        assert.match(run.stderr, advice);
        assert.doesNotMatch(run.stderr, LIBRARY_WORDS);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
