/**
 * A misspelt database gives the same NotFoundError from every method, with
 * "did you mean" drawn from the accounts catalogue.
 */

import assert from "node:assert/strict";
import { NotFoundError } from "../../lib/errors/errors.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { closestNames, editDistance } from "../../lib/options/did_you_mean.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const MEANT =
  /^Cannot find the database shinano\/leters: the accounts catalogue does not list it; did you mean "letters"\?/;

Deno.test("search, resources and sparql: one error class and message for a misspelt database", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { db: "leters" });
    for (
      const call of [
        () => archive.search({ q: "手紙" }),
        () => archive.resources(),
        () => archive.sparql("SELECT * WHERE { ?s ?p ?o } LIMIT 1"),
      ]
    ) {
      const error = await call().then(() => assert.fail("expected an error"), (e: unknown) => e);
      assert.ok(error instanceof NotFoundError, String(error));
      assert.match(error.shortMessage, MEANT);
      assert.match(String(error.hint), /The databases of shinano: letters/);
      assert.match(String(error.hint), /private one is listed only with an apiKey/);
    }
  });
});

Deno.test("with a key, the account's private databases are offered too", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { db: "drafs", apiKey: SANDBOX_KEYS.shinanoRead });
    const error = await archive.search({ q: "x" }).then(() => assert.fail(), (e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.match(error.shortMessage, /did you mean "drafts"\?/);
    assert.match(String(error.hint), /notes/);
  });
});

Deno.test("a 404 inside a database that exists stays the plain not-found error", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const error = await archive.resource("no-such-letter").then(
      () => assert.fail(),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NotFoundError);
    assert.doesNotMatch(error.message, /did you mean/);
  });
});

Deno.test("closest names: small edits count, distant names are not offered", () => {
  assert.equal(editDistance("leters", "letters"), 1);
  assert.equal(editDistance("lettres", "letters"), 1);
  // Only the nearest are offered: "ledgers" is two edits away, "letters" one.
  assert.deepEqual(closestNames("leters", ["photos", "letters", "ledgers"]), ["letters"]);
  assert.deepEqual(closestNames("tag", ["tags", "raw", "type"]), ["tags"]);
  assert.deepEqual(closestNames("leters", ["meters", "letters"]), ["letters", "meters"]);
  assert.deepEqual(closestNames("zzz", ["letters"]), []);
});
