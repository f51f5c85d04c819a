/**
 * A dataset writer touches only files it wrote: a user's file or a
 * symbolic link planted at its state file, its checkpoint, a partition
 * folder or a part file is refused, never removed, replaced, read through or
 * written through. Each case checks the disk itself (the bytes kept, the
 * link still a link, its target and the folder it points at untouched).
 */

import assert from "node:assert/strict";
import { DatasetWriter, writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { harvestDataset } from "../../lib/archive/oai/harvest_dataset.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { defineSchema } from "../../lib/table/schema.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const schema = defineSchema<{ id: string; year: string }>([
  { name: "id", type: "string" },
  { name: "year", type: "string" },
]);
const MINE = '{"my": "own harvest state, kept for months"}\n';
const OUTSIDE = "aws_secret_access_key,wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY\n";

async function* pages(...ids: string[]) {
  for (const id of ids) yield [{ id, year: "2026" }];
}

/** A dataset folder to be, a user's folder beside it, and a file a link may point at. */
async function scene() {
  const root = await Deno.makeTempDir({ prefix: "tidepool-own-dataset-" });
  await Deno.mkdir(`${root}/elsewhere`);
  const outside = `${root}/elsewhere/creds.csv`;
  await Deno.writeTextFile(outside, OUTSIDE);
  return { root, dir: `${root}/data`, outside, elsewhere: `${root}/elsewhere` };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function listing(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

function refusal(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof TidepoolError && pattern.test(error.message) &&
    !String(error.stack).includes("wJalrXUtnFEMI");
}

Deno.test("a user's file at the state file's name is refused and kept: fresh, resumed, or named anew", async () => {
  const { root, dir } = await scene();
  try {
    const mine = `${root}/my_state.json`;
    await Deno.writeTextFile(mine, MINE);
    // A fresh dataset: the file was there before the dataset.
    await assert.rejects(
      writeDataset(pages("a"), dir, { schema, stateFile: mine }),
      refusal(/a file is there that this dataset did not write/),
    );
    assert.equal(await Deno.readTextFile(mine), MINE);
    // A dataset that claimed another state file, given this one now.
    await writeDataset(pages("a"), dir, { schema, stateFile: `${root}/ours.json` });
    await Deno.writeTextFile(`${root}/ours.json`, "{}");
    await assert.rejects(
      writeDataset(pages("b"), dir, { schema, stateFile: mine }),
      refusal(/did not write/),
    );
    assert.equal(await Deno.readTextFile(mine), MINE);
    // Inside the dataset folder, next to a checkpoint another run wrote before names were kept.
    const inside = `${root}/fresh/_harvest_state.json`;
    await Deno.mkdir(`${root}/fresh`);
    await Deno.writeTextFile(inside, MINE);
    await assert.rejects(DatasetWriter.open(`${root}/fresh`, { schema, stateFile: inside }));
    assert.equal(await Deno.readTextFile(inside), MINE);
    // The checkpoint itself is no state file.
    await assert.rejects(
      DatasetWriter.open(dir, { schema, stateFile: `${dir}/_tidepool_checkpoint.json` }),
      refusal(/it is the dataset's checkpoint/),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the dataset's own state file is still put back and reset", async () => {
  const { root, dir } = await scene();
  try {
    const state = `${root}/state.json`;
    const writer = await DatasetWriter.open(dir, { schema, stateFile: state });
    await Deno.writeTextFile(state, '{"page": 1}');
    await writer.write([{ id: "a", year: "2026" }]);
    await writer.flush();
    await Deno.writeTextFile(state, '{"page": 2}'); // moved on, then the run stopped
    await (await DatasetWriter.open(dir, { schema, stateFile: state })).close();
    assert.equal(await Deno.readTextFile(state), '{"page": 1}', "put back as checkpointed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("harvestDataset with a user's file as its state sends nothing and keeps the file", async () => {
  const sandbox = startOaiSandbox({ pageSize: 10 });
  const { root, dir } = await scene();
  try {
    const mine = `${root}/notes.json`;
    await Deno.writeTextFile(mine, MINE);
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, { progress: false });
    await assert.rejects(harvestDataset(oai, dir, { state: mine }), refusal(/did not write/));
    assert.equal(await Deno.readTextFile(mine), MINE);
    assert.equal(sandbox.providers["acme/letters"].hits.get("ListRecords") ?? 0, 0, "no request");
  } finally {
    await sandbox.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a link at the state file's name is refused: not removed, not replaced, its target unread", async () => {
  const { root, dir, outside } = await scene();
  try {
    const state = `${root}/state.json`;
    // A fresh dataset (the writer used to remove what was there).
    await Deno.symlink(outside, state);
    await assert.rejects(
      DatasetWriter.open(dir, { schema, stateFile: state }),
      refusal(/symbolic link/),
    );
    assert.equal((await Deno.lstat(state)).isSymlink, true);
    await Deno.remove(state);
    // A resumed dataset with a checkpointed state (the writer used to replace what was there).
    const writer = await DatasetWriter.open(dir, { schema, stateFile: state });
    await Deno.writeTextFile(state, '{"page": 1}');
    await writer.close();
    await Deno.remove(state);
    await Deno.symlink(outside, state);
    await assert.rejects(
      DatasetWriter.open(dir, { schema, stateFile: state }),
      refusal(/symbolic link/),
    );
    assert.equal((await Deno.lstat(state)).isSymlink, true);
    assert.equal(await Deno.readTextFile(outside), OUTSIDE);
    // A link swapped in while the writer runs: its target is not copied into the checkpoint.
    await Deno.remove(state);
    const running = await DatasetWriter.open(dir, { schema, stateFile: state });
    await Deno.remove(state); // put back as checkpointed, then swapped for a link
    await Deno.symlink(outside, state);
    await running.write([{ id: "b", year: "2026" }]);
    await assert.rejects(running.flush(), refusal(/symbolic link/));
    const checkpoint = await Deno.readTextFile(`${dir}/_tidepool_checkpoint.json`);
    assert.ok(!checkpoint.includes("wJalrXUtnFEMI"), "the target's text is not in the dataset");
    assert.equal(await Deno.readTextFile(outside), OUTSIDE);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a link at the checkpoint's name is refused: its target is not read or shown", async () => {
  const { root, dir, outside } = await scene();
  try {
    await Deno.mkdir(dir);
    await Deno.symlink(outside, `${dir}/_tidepool_checkpoint.json`);
    await assert.rejects(DatasetWriter.open(dir, { schema }), refusal(/symbolic link/));
    await Deno.remove(`${dir}/_tidepool_checkpoint.json`);
    // Another dataset's checkpoint, linked: refused, not taken over.
    await writeDataset(pages("a"), `${root}/other`, { schema });
    await Deno.symlink(
      `${root}/other/_tidepool_checkpoint.json`,
      `${dir}/_tidepool_checkpoint.json`,
    );
    const before = await Deno.readTextFile(`${root}/other/_tidepool_checkpoint.json`);
    await assert.rejects(writeDataset(pages("b"), dir, { schema }), refusal(/symbolic link/));
    assert.equal(await Deno.readTextFile(`${root}/other/_tidepool_checkpoint.json`), before);
    assert.equal((await Deno.lstat(`${dir}/_tidepool_checkpoint.json`)).isSymlink, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a link at a partition folder's name is refused: nothing is written where it points", async () => {
  const { root, dir, elsewhere } = await scene();
  try {
    await writeDataset(pages("a"), dir, { schema, partitionBy: ["year"] });
    // year=2027 does not exist yet: a link planted there would take the next file.
    await Deno.symlink(elsewhere, `${dir}/year=2027`);
    const before = await listing(elsewhere);
    await assert.rejects(
      writeDataset(
        (async function* () {
          yield [{ id: "b", year: "2027" }];
        })(),
        dir,
        { schema, partitionBy: ["year"] },
      ),
      refusal(/symbolic link/),
    );
    assert.deepEqual(await listing(elsewhere), before, "nothing written through the link");
    assert.equal((await Deno.lstat(`${dir}/year=2027`)).isSymlink, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a link at a part file's name is refused, not removed; a checkpoint naming a file outside is refused", async () => {
  const { root, dir, elsewhere } = await scene();
  try {
    const summary = await writeDataset(pages("a"), dir, { schema, key: ["id"] });
    const theirs = `${elsewhere}/theirs.parquet`;
    await Deno.copyFile(`${dir}/${summary.files[0]}`, theirs);
    await Deno.symlink(theirs, `${dir}/part-000009-deadbeef.parquet`);
    await assert.rejects(DatasetWriter.open(dir, { schema }), refusal(/symbolic link/));
    assert.equal((await Deno.lstat(`${dir}/part-000009-deadbeef.parquet`)).isSymlink, true);
    assert.equal(await exists(theirs), true);
    await Deno.remove(`${dir}/part-000009-deadbeef.parquet`);
    // An edited checkpoint listing a file outside the folder: refused before it is read.
    const path = `${dir}/_tidepool_checkpoint.json`;
    const checkpoint = JSON.parse(await Deno.readTextFile(path));
    checkpoint.files.push("../elsewhere/theirs.parquet");
    await Deno.writeTextFile(path, JSON.stringify(checkpoint));
    await assert.rejects(
      DatasetWriter.open(dir, { schema, key: ["id"] }),
      refusal(/Cannot read the dataset checkpoint/),
    );
    // A committed file swapped for a link: its keys are not read through it.
    checkpoint.files.pop();
    await Deno.writeTextFile(path, JSON.stringify(checkpoint));
    await Deno.remove(`${dir}/${summary.files[0]}`);
    await Deno.symlink(theirs, `${dir}/${summary.files[0]}`);
    await assert.rejects(
      DatasetWriter.open(dir, { schema, key: ["id"] }),
      refusal(/symbolic link/),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
