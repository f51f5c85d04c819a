/**
 * One step to the side of "verify compares each table's CSV with its
 * Parquet": the CSV's bytes untouched, but `datapackage.json` rewritten to
 * tell a Data Package reader (frictionless and its kin apply a resource's
 * dialect, encoding and Table Schema) to read them as another table than
 * the Parquet file holds; the crate and `SHA256SUMS` follow, so that
 * `sha256sum -c` (a child) passes. What a reader would read is worked out
 * here from the declared terms and the bytes on disk; `verify` (a child)
 * must fail naming the CSV. Members: a missing value `10`, another
 * delimiter, a group character, another encoding, no header line.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { resync, run } from "./_bundle_rewrite.ts";

const VERIFY = new URL("../../verify.ts", import.meta.url).pathname;

type Resource = Record<string, unknown> & {
  dialect: Record<string, unknown>;
  schema: { fields: Record<string, unknown>[]; missingValues: string[] };
};

const CASES: [string, (csv: Resource) => void, (bytes: Uint8Array, csv: Resource) => void][] = [
  [
    "the cell 10 declared missing",
    (csv) => (csv.schema.missingValues = ["", "10"]),
    (bytes, csv) => {
      const cells = new TextDecoder().decode(bytes).split("\n")[1].split(",");
      assert.ok(csv.schema.missingValues.includes(cells[1]), "a reader reads row 1's n as missing");
    },
  ],
  [
    "a semicolon delimiter",
    (csv) => (csv.dialect.delimiter = ";"),
    (bytes, csv) => {
      const header = new TextDecoder().decode(bytes).split("\n")[0];
      assert.equal(header.split(String(csv.dialect.delimiter)).length, 1, "one column, k,n");
    },
  ],
  [
    "a group character 0",
    (csv) => (csv.schema.fields[1].groupChar = "0"),
    (bytes, csv) => {
      const cell = new TextDecoder().decode(bytes).split("\n")[1].split(",")[1];
      assert.equal(cell.replaceAll(String(csv.schema.fields[1].groupChar), ""), "1", "10 reads 1");
    },
  ],
  [
    "a Latin-1 encoding",
    (csv) => (csv.encoding = "iso-8859-1"),
    (bytes, csv) => {
      const read = new TextDecoder(String(csv.encoding)).decode(bytes);
      assert.match(read, /cafÃ©/, "a reader shows café as cafÃ©");
    },
  ],
  [
    "no header line",
    (csv) => (csv.dialect.header = false),
    (bytes) => {
      assert.match(new TextDecoder().decode(bytes), /^k,n\n/, "the header line is read as a row");
    },
  ],
];

for (const [what, edit, reads] of CASES) {
  Deno.test(`verify fails a data package that reads the CSV otherwise: ${what}`, async () => {
    const root = await Deno.makeTempDir({ prefix: "tidepool-terms-" });
    try {
      const dir = `${root}/bundle`;
      await saveBundle(dir, {
        draft: true,
        tables: { counts: aq.table({ k: ["café", "B"], n: [10, 20] }) },
      });
      const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
      const csv = descriptor.resources.find((r: Resource) => r.path === "counts.csv") as Resource;
      edit(csv);
      await Deno.writeTextFile(`${dir}/datapackage.json`, JSON.stringify(descriptor, null, 2));
      await resync(dir);
      const sums = await run("sha256sum", ["-c", "--quiet", "SHA256SUMS"], dir);
      assert.equal(sums.code, 0, `the rewrite is consistent: ${sums.out}`);
      reads(await Deno.readFile(`${dir}/counts.csv`), csv);
      const verified = await run(Deno.execPath(), ["run", "--allow-read", "--frozen", VERIFY, dir]);
      assert.equal(verified.code, 1, verified.out);
      assert.match(verified.out, /counts\.csv: datapackage\.json has a reader read it otherwise/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}
