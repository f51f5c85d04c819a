/**
 * saveTable and readTable touch only tidepool's own sidecar: a user's file
 * or a symbolic link planted at `<file>.provenance.json` is never removed,
 * replaced, written through or read through. Each case checks the disk
 * itself (the bytes kept, the link still a link, its target untouched),
 * not tidepool's report.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { readTable, saveTable } from "../../lib/files/mod.ts";
import { attachProvenance, provenance } from "../../lib/table/provenance.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const USER_NOTES = "my notes on this table: keep them\n";
const OUTSIDE = "aws_secret_access_key,wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY\n";

function plain() {
  return aq.table({ id: ["a", "b"], n: [1, 2] });
}

function withProvenance() {
  return attachProvenance(plain(), {
    service: "http://127.0.0.1:8002/subgraphs/name/oceanprotocol/ocean-subgraph",
    operation: "Subgraph.orders",
    params: {},
    tidepoolVersion: "0.1.0",
    startedAt: "2026-11-23T10:00:00.000Z",
    endedAt: "2026-11-23T10:00:02.000Z",
    asOf: {},
    cacheKeys: [],
  });
}

/** A folder for the table, and beside it a folder with a file a link may point at. */
async function scene() {
  const root = await Deno.makeTempDir({ prefix: "tidepool-own-sidecar-" });
  await Deno.mkdir(`${root}/out`);
  await Deno.mkdir(`${root}/elsewhere`);
  const outside = `${root}/elsewhere/creds.csv`;
  await Deno.writeTextFile(outside, OUTSIDE);
  return { root, dir: `${root}/out`, outside };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

function refusedNaming(path: string) {
  return (error: unknown) =>
    error instanceof TidepoolError && error.message.includes(path) &&
    /Refused to replace/.test(error.message) && !error.message.includes("wJalrXUtnFEMI");
}

Deno.test("saveTable keeps a user's file at the sidecar's name, with or without provenance, in every sidecar format", async () => {
  const { root, dir } = await scene();
  try {
    for (const extension of ["csv", "json", "ndjson"]) {
      for (const table of [plain(), withProvenance()]) {
        const path = `${dir}/t.${extension}`;
        const sidecar = `${path}.provenance.json`;
        await Deno.writeTextFile(sidecar, USER_NOTES);
        await assert.rejects(() => saveTable(path, table), refusedNaming(sidecar));
        assert.equal(await Deno.readTextFile(sidecar), USER_NOTES, `${extension}: notes kept`);
        assert.equal(await exists(path), false, `${extension}: nothing written on a refusal`);
        await Deno.remove(sidecar);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("saveTable keeps another program's JSON at the sidecar's name and the table saved before", async () => {
  const { root, dir } = await scene();
  try {
    const path = `${dir}/t.csv`;
    await saveTable(path, plain());
    const before = await Deno.readFile(path);
    const other = JSON.stringify({ generator: "another tool", rows: 2 });
    await Deno.writeTextFile(`${path}.provenance.json`, other);
    await assert.rejects(() => saveTable(path, plain()), refusedNaming(`${path}.provenance.json`));
    assert.equal(await Deno.readTextFile(`${path}.provenance.json`), other);
    assert.deepEqual(await Deno.readFile(path), before, "the table file as it was");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("saveTable refuses a link at the sidecar's name: not removed, not replaced, its target untouched", async () => {
  const { root, dir, outside } = await scene();
  try {
    for (const table of [plain(), withProvenance()]) {
      const path = `${dir}/t.csv`;
      const sidecar = `${path}.provenance.json`;
      await Deno.symlink(outside, sidecar);
      await assert.rejects(
        () => saveTable(path, table),
        (error: unknown) =>
          refusedNaming(sidecar)(error) && /symbolic link/.test((error as Error).message),
      );
      assert.equal((await Deno.lstat(sidecar)).isSymlink, true, "the link is still there");
      assert.equal(await Deno.readLink(sidecar), outside);
      assert.equal(await Deno.readTextFile(outside), OUTSIDE, "its target untouched");
      await Deno.remove(sidecar);
    }
    // A dangling link: nothing is made where it points.
    await Deno.symlink(`${root}/elsewhere/made.json`, `${dir}/d.csv.provenance.json`);
    await assert.rejects(() => saveTable(`${dir}/d.csv`, withProvenance()), TidepoolError);
    assert.equal(await exists(`${root}/elsewhere/made.json`), false);
    assert.equal((await Deno.lstat(`${dir}/d.csv.provenance.json`)).isSymlink, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("saveTable to Parquet or Arrow leaves a file or link at the sidecar's name alone", async () => {
  const { root, dir, outside } = await scene();
  try {
    for (const extension of ["parquet", "arrow"]) {
      const path = `${dir}/t.${extension}`;
      await Deno.writeTextFile(`${path}.provenance.json`, USER_NOTES);
      await saveTable(path, withProvenance());
      assert.equal(await Deno.readTextFile(`${path}.provenance.json`), USER_NOTES, extension);
      await Deno.remove(`${path}.provenance.json`);
      await Deno.symlink(outside, `${path}.provenance.json`);
      await saveTable(path, plain());
      assert.equal((await Deno.lstat(`${path}.provenance.json`)).isSymlink, true, extension);
      assert.equal(await Deno.readTextFile(outside), OUTSIDE);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("saveTable still replaces and removes its own sidecar", async () => {
  const { root, dir } = await scene();
  try {
    const path = `${dir}/t.ndjson`;
    await saveTable(path, withProvenance());
    await saveTable(path, withProvenance());
    assert.equal(provenance(await readTable(path))?.operation, "Subgraph.orders");
    await saveTable(path, plain());
    assert.equal(await exists(`${path}.provenance.json`), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readTable reads no sidecar through a link: neither a file's text nor another table's provenance", async () => {
  const { root, dir, outside } = await scene();
  try {
    const path = `${dir}/t.csv`;
    await saveTable(path, plain());
    await Deno.symlink(outside, `${path}.provenance.json`);
    await assert.rejects(
      () => readTable(path),
      (error: unknown) =>
        error instanceof TidepoolError && /symbolic link/.test(error.message) &&
        !String(error.stack).includes("aws_secret") && !String(error.stack).includes("wJalr"),
    );
    await Deno.remove(`${path}.provenance.json`);
    // Another saved table's provenance, linked: still refused, not attached.
    await saveTable(`${root}/elsewhere/other.csv`, withProvenance());
    await Deno.symlink(`${root}/elsewhere/other.csv.provenance.json`, `${path}.provenance.json`);
    await assert.rejects(() => readTable(path), /symbolic link/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
