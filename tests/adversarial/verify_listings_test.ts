/**
 * `verify` reads each file of a bundle once, however many times a listing
 * names it, and reads no listing past its limit: a 32 MiB file listed 64
 * times in the crate's `hasPart`, described 64 times in `datapackage.json`,
 * and the crate named 64 times in `SHA256SUMS`. Checked from outside the
 * verifier: the bytes its process read, as the kernel counts them
 * (`rchar` of /proc/self/io in a child that only verifies).
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";

const BIG = 32 * 1024 * 1024;
const TIMES = 64;
const VERIFY_MODULE = new URL("../../lib/bundle/verify_bundle.ts", import.meta.url).href;

/** Verifies in a child; its problems and the bytes the child read in all. */
async function verifyInChild(bundle: string): Promise<{ problems: string[]; readBytes: number }> {
  const script = `
    import { verifyBundle } from ${JSON.stringify(VERIFY_MODULE)};
    const check = await verifyBundle(${JSON.stringify(bundle)});
    const io = Deno.readTextFileSync("/proc/self/io");
    console.log(JSON.stringify({
      problems: check.problems.objects().map((p) => p.path + ": " + p.problem),
      readBytes: Number(/^rchar: (\\d+)/m.exec(io)[1]),
    }));`;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--frozen", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!);
}

async function bigBundle(root: string): Promise<string> {
  const bundle = `${root}/bundle`;
  await saveBundle(bundle, { draft: true, tables: { counts: aq.table({ k: ["a"], n: [1] }) } });
  const file = await Deno.open(`${bundle}/big.bin`, { write: true, createNew: true });
  await file.truncate(BIG); // sparse: its size, none of it on the disk
  file.close();
  return bundle;
}

async function sha256Of(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("a file listed 64 times in hasPart and in datapackage.json is read once", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-listings-" });
  try {
    const bundle = await bigBundle(root);
    const sha256 = await sha256Of(`${bundle}/big.bin`);
    const cratePath = `${bundle}/ro-crate-metadata.json`;
    const crate = JSON.parse(await Deno.readTextFile(cratePath));
    const rootEntity = crate["@graph"].find((e: { "@id": string }) => e["@id"] === "./");
    for (let i = 0; i < TIMES; i++) rootEntity.hasPart.push({ "@id": "big.bin" });
    crate["@graph"].push({ "@id": "big.bin", "@type": "File", contentSize: String(BIG), sha256 });
    await Deno.writeTextFile(cratePath, JSON.stringify(crate));
    const packagePath = `${bundle}/datapackage.json`;
    const descriptor = JSON.parse(await Deno.readTextFile(packagePath));
    for (let i = 0; i < TIMES; i++) {
      descriptor.resources.push({
        name: `big${i}`,
        path: "big.bin",
        bytes: BIG,
        hash: `sha256:${sha256}`,
      });
    }
    await Deno.writeTextFile(packagePath, JSON.stringify(descriptor));

    const { problems, readBytes } = await verifyInChild(bundle);
    assert.ok(
      readBytes < 2 * BIG,
      `verify read ${Math.round(readBytes / 2 ** 20)} MiB for one 32 MiB file`,
    );
    assert.ok(problems.some((p) => /^big\.bin: listed 64 times/.test(p)), problems.join("\n"));
    assert.ok(
      problems.some((p) => /^big\.bin: described more than once/.test(p)),
      problems.join("\n"),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a crate named 64 times in SHA256SUMS is read once; a listing past the limit is one row", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-listings-" });
  try {
    const bundle = `${root}/bundle`;
    await saveBundle(bundle, { draft: true, tables: { counts: aq.table({ k: ["a"], n: [1] }) } });
    // A crate padded to 32 MiB (a long description), named 64 times in SHA256SUMS.
    const cratePath = `${bundle}/ro-crate-metadata.json`;
    const crate = JSON.parse(await Deno.readTextFile(cratePath));
    crate["@graph"].find((e: { "@id": string }) => e["@id"] === "./").hasPart.push(
      ...Array.from({ length: 20_000 }, (_, i) => ({ "@id": `missing-${i}.csv` })),
    );
    crate["@graph"].push({ "@id": "#padding", description: "x".repeat(BIG) });
    await Deno.writeTextFile(cratePath, JSON.stringify(crate));
    const line = `${await sha256Of(cratePath)}  ro-crate-metadata.json\n`;
    const sums = await Deno.readTextFile(`${bundle}/SHA256SUMS`);
    await Deno.writeTextFile(`${bundle}/SHA256SUMS`, sums + line.repeat(TIMES));

    const { problems, readBytes } = await verifyInChild(bundle);
    // The crate is read as metadata once and hashed once.
    assert.ok(readBytes < 3 * BIG, `verify read ${Math.round(readBytes / 2 ** 20)} MiB`);
    assert.ok(
      problems.some((p) => /^ro-crate-metadata\.json: listed more than once in SHA256SUMS/.test(p)),
    );
    assert.ok(
      problems.some((p) => /lists \d+ files in its root's hasPart, more than the 10000/.test(p)),
      problems.slice(0, 3).join("\n"),
    );
    // Each checked entry may say three things (missing, not in SHA256SUMS, not described); none past the limit.
    assert.ok(problems.length < 3 * 10_000 + 100, `${problems.length} rows`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
