/**
 * A bundle whose CSV says something else than its Parquet fails `verify`,
 * however well the rest was rewritten to match: the CSV is edited, then the
 * crate's SHA-256, size and table digest, `datapackage.json` and
 * `SHA256SUMS` are all rewritten, so that `sha256sum -c` (run as a child)
 * passes. `verify` (the command, as a child) must fail naming the table and
 * the first differing cell. Members: a changed cell, a dropped row, a
 * renamed column; and a bundle of many column types left alone still holds.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { tableDigest } from "../../lib/table/table_digest.ts";
import { run, sha256 } from "./_bundle_rewrite.ts";

const VERIFY = new URL("../../verify.ts", import.meta.url).pathname;

/** Edits `name` and rewrites every record of it (crate, digest, data package, sums) to match. */
async function editConsistently(dir: string, name: string, edit: (text: string) => string) {
  await Deno.writeTextFile(`${dir}/${name}`, edit(await Deno.readTextFile(`${dir}/${name}`)));
  const bytes = await Deno.readFile(`${dir}/${name}`);
  const hash = await sha256(bytes);
  const crate = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
  const graph = crate["@graph"] as Record<string, unknown>[];
  const entity = graph.find((e) => e["@id"] === name)!;
  entity.sha256 = hash;
  entity.contentSize = String(bytes.length);
  const digestId = (entity.identifier as { "@id": string })["@id"];
  graph.find((e) => e["@id"] === digestId)!.value =
    tableDigest(await readTable(`${dir}/${name}`)).sha256;
  await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, JSON.stringify(crate, null, 2));
  const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
  for (const resource of descriptor.resources) {
    if (resource.path === name) {
      Object.assign(resource, { hash: `sha256:${hash}`, bytes: bytes.length });
    }
  }
  await Deno.writeTextFile(`${dir}/datapackage.json`, JSON.stringify(descriptor, null, 2));
  // datapackage.json changed too: its crate entry and every line of SHA256SUMS follow.
  const packageBytes = await Deno.readFile(`${dir}/datapackage.json`);
  const pkg = graph.find((e) => e["@id"] === "datapackage.json")!;
  pkg.sha256 = await sha256(packageBytes);
  pkg.contentSize = String(packageBytes.length);
  await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, JSON.stringify(crate, null, 2));
  const lines = [];
  for (const line of (await Deno.readTextFile(`${dir}/SHA256SUMS`)).trim().split("\n")) {
    const file = line.slice(66);
    lines.push(`${await sha256(await Deno.readFile(`${dir}/${file}`))}  ${file}`);
  }
  await Deno.writeTextFile(`${dir}/SHA256SUMS`, lines.join("\n") + "\n");
}

async function bundle(root: string): Promise<string> {
  const dir = `${root}/bundle`;
  await saveBundle(dir, {
    draft: true,
    tables: { counts: aq.table({ k: ["A", "B", "C"], n: [10, 20, 30] }) },
  });
  return dir;
}

const CASES: [string, (text: string) => string, RegExp][] = [
  [
    "a changed cell",
    (t) => t.replace("A,10", "A,99999"),
    /counts\.csv: says something else than counts\.parquet.*row 1, column "n": the CSV has "99999", the Parquet file "10"/,
  ],
  [
    "a dropped row",
    (t) => t.replace("C,30\n", ""),
    /counts\.csv: says something else than counts\.parquet.*it has 2 rows, the Parquet file 3/,
  ],
  [
    "a renamed column",
    (t) => t.replace("k,n", "k,count"),
    /counts\.csv: says something else than counts\.parquet.*its columns are "k", "count"/,
  ],
];

for (const [what, edit, expected] of CASES) {
  Deno.test(`verify fails a bundle whose CSV disagrees with its Parquet: ${what}`, async () => {
    const root = await Deno.makeTempDir({ prefix: "tidepool-disagree-" });
    try {
      const dir = await bundle(root);
      await editConsistently(dir, "counts.csv", edit);
      const sums = await run("sha256sum", ["-c", "SHA256SUMS"], dir);
      assert.equal(sums.code, 0, `the rewrite is consistent: ${sums.out}`);
      const verified = await run(Deno.execPath(), ["run", "--allow-read", "--frozen", VERIFY, dir]);
      assert.equal(verified.code, 1, verified.out);
      assert.match(verified.out, expected);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a bundle of many column types whose files agree holds", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-disagree-" });
  try {
    const dir = `${root}/bundle`;
    await saveBundle(dir, {
      draft: true,
      tables: {
        mixed: aq.table({
          text: ["=1+1", "-INF", 'a,"b"\nc', null],
          number: [1.5, Number.NaN, Infinity, 1e-21],
          integer: [1, 2, null, 4],
          when: [
            new Date("2020-01-01T00:00:00Z"),
            null,
            new Date(0),
            new Date("1999-12-31T23:59:59.5Z"),
          ],
          flag: [true, false, null, true],
          tags: [["a", "b"], [], null, ["ç"]],
        }),
      },
    });
    const verified = await run(Deno.execPath(), ["run", "--allow-read", "--frozen", VERIFY, dir]);
    assert.equal(verified.code, 0, verified.out);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
