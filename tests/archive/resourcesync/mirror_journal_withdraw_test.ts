/**
 * A claim taken back is gone for the next run, read back from the journal's
 * lines; a withdrawal names the claim it takes back (its path and digest),
 * so it never drops another. Class: a stale claim adopting a user's file.
 */

import assert from "node:assert/strict";
import { MirrorJournal } from "../../../lib/archive/resourcesync/_mirror_journal.ts";

const claim = { loc: "http://h/a.txt", path: "a.txt", sha256: "aa", bytes: 1, version: "v" };

async function reopened(steps: (journal: MirrorJournal) => Promise<void>) {
  const root = await Deno.makeTempDir();
  try {
    const journal = await MirrorJournal.open(`${root}/j.jsonl`);
    await steps(journal);
    await journal.close();
    return await MirrorJournal.open(`${root}/j.jsonl`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a withdrawn claim is no claim for the next run", async () => {
  const journal = await reopened(async (j) => {
    await j.claim(claim);
    await j.withdraw(claim);
  });
  assert.equal(journal.claimOf(claim.loc), undefined);
  assert.equal(journal.digestsAt(claim.path).size, 0);
  assert.equal(journal.ownerOf(claim.path), undefined);
});

Deno.test("a withdrawal of another digest or path leaves the claim", async () => {
  for (const other of [{ ...claim, sha256: "bb" }, { ...claim, path: "b.txt" }]) {
    const journal = await reopened(async (j) => {
      await j.claim(claim);
      await j.withdraw(other);
    });
    assert.deepEqual(journal.claimOf(claim.loc), claim);
  }
});

Deno.test("a claim made again after a withdrawal holds", async () => {
  const journal = await reopened(async (j) => {
    await j.claim(claim);
    await j.withdraw(claim);
    await j.claim({ ...claim, sha256: "cc" });
  });
  assert.equal(journal.claimOf(claim.loc)?.sha256, "cc");
});
