/**
 * A mirror's folder holds files tidepool did not write: a folder that is not
 * empty at the start, a user's file where a new resource would go, a
 * mirrored file the user edited, a link on the way out of the folder. None
 * of them is ever overwritten, deleted or written through; each is read
 * back byte for byte from the disk.
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import type { OaiSandboxRecord } from "../../../lib/sandbox/archive/oai/mod.ts";
import { filesIn, mirrorSandbox } from "./_mirror_helpers.ts";

const quiet = { progress: false as const, warn: () => {} };
const site = "acme/letters";
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

/** A new record, changed now. */
function added(records: OaiSandboxRecord[], slug: string): OaiSandboxRecord {
  const record = { ...records[0], slug, identifier: `oai:x:${slug}`, datestamp: now() };
  records.push(record);
  return record;
}

Deno.test("a folder that is not empty is not a mirror's: refused at the start, every byte kept", async () => {
  const { sandbox } = mirrorSandbox(10);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/files`);
    await Deno.writeTextFile(`${dir}/files/notes.txt`, "mine");
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    await assert.rejects(
      rs.mirror({ state: `${dir}/m.json`, dir: `${dir}/files` }),
      /Cannot start a mirror's files in .*files: the folder is not empty \(notes\.txt\)/,
    );
    assert.deepEqual([...(await filesIn(`${dir}/files`)).keys()], ["notes.txt"]);
    assert.equal(await Deno.readTextFile(`${dir}/files/notes.txt`), "mine");
    await assert.rejects(Deno.lstat(`${dir}/m.json`), Deno.errors.NotFound);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a user's file where a new resource goes is never replaced; once moved away, the resource is written", async () => {
  const { sandbox, records } = mirrorSandbox(10);
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    const options = { state: `${dir}/m.json`, dir: `${dir}/files` };
    await rs.mirror(options);
    const theirs = `${dir}/files/${site}/data/new-1`;
    await Deno.writeTextFile(theirs, "the user's own file");
    added(records, "new-1");
    const error = await rs.mirror(options).catch((e) => e);
    assert.ok(error instanceof MirrorError, String(error));
    assert.equal(error.failed.length, 1);
    assert.match(error.failed[0].message, /data\/new-1 is there, and tidepool did not write it/);
    assert.equal(await Deno.readTextFile(theirs), "the user's own file");
    await Deno.remove(theirs);
    const next = await rs.mirror(options);
    assert.deepEqual(next.written.map((f) => f.path), [`${site}/data/new-1`]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a mirrored file the user edited is neither updated nor deleted; an untouched one is deleted when its resource goes", async () => {
  const { sandbox, records } = mirrorSandbox(12);
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    const options = { state: `${dir}/m.json`, dir: `${dir}/files` };
    await rs.mirror(options);
    const live = records.filter((r) => !r.deleted);
    const [edited, untouched] = [live[2], live[5]];
    const editedPath = `${dir}/files/${site}/data/${edited.slug}`;
    await Deno.writeTextFile(editedPath, "my annotations");
    edited.dc.title = ["Changed upstream"];
    edited.datestamp = now();
    const error = await rs.mirror(options).catch((e) => e);
    assert.ok(error instanceof MirrorError, String(error));
    assert.match(error.failed[0].message, /was changed since tidepool wrote it/);
    assert.equal(await Deno.readTextFile(editedPath), "my annotations");
    // Both resources go; the re-list deletes only the file that is as tidepool wrote it.
    records.splice(records.indexOf(edited), 1);
    records.splice(records.indexOf(untouched), 1);
    const relist = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.deepEqual(relist.deleted, [`${site}/data/${untouched.slug}`]);
    assert.deepEqual(relist.kept, [`${site}/data/${edited.slug}`]);
    assert.equal(await Deno.readTextFile(editedPath), "my annotations");
    await assert.rejects(
      Deno.lstat(`${dir}/files/${site}/data/${untouched.slug}`),
      Deno.errors.NotFound,
    );
    // The kept file is the user's from now on: a later re-list leaves it too.
    const later = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.deepEqual(later.deleted, []);
    assert.equal(await Deno.readTextFile(editedPath), "my annotations");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a link on the way out of the folder is never written through", async () => {
  const { sandbox, records } = mirrorSandbox(6);
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, { ...quiet, site });
    const options = { state: `${dir}/m.json`, dir: `${dir}/files` };
    await rs.mirror(options);
    // The user moves the site's folder away and leaves a link to somewhere else.
    await Deno.rename(`${dir}/files/acme`, `${dir}/moved`);
    await Deno.symlink(outside, `${dir}/files/acme`);
    added(records, "new-2");
    const error = await rs.mirror(options).catch((e) => e);
    assert.ok(error instanceof MirrorError, String(error));
    assert.match(error.failed[0].message, /acme is a link, not a folder tidepool made/);
    assert.equal((await filesIn(outside)).size, 0, "nothing written through the link");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
