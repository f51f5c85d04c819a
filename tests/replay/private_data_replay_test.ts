/**
 * Reads of a private database with an API key, recorded and replayed as
 * docs/publishing.md promises: the replay with the same key, another key or
 * no key at all, with nothing sent (a fetch that counts), gives the same
 * tables; the key is in no file of the recording or of the bundle; the
 * tables' provenance, the bundle's page and its RO-Crate say the tables were
 * read with a key.
 */

import assert from "node:assert/strict";
import { Archive } from "../../lib/archive/mod.ts";
import { SANDBOX_KEYS, startArchiveSandbox } from "../../lib/sandbox/archive/mod.ts";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { provenance } from "../../lib/table/provenance.ts";
import { tableDigest } from "../../lib/table/table_digest.ts";
import { snapshot } from "../bundle/_paper_project.ts";

Deno.test("private reads with a key replay with the same key, another key or none, offline", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-private-" });
  const sandbox = await startArchiveSandbox();
  const url = sandbox.url;
  const key = SANDBOX_KEYS.shinanoRead;
  const read = async (
    mode: "record" | "replay",
    apiKey: string | undefined,
    fetch: typeof globalThis.fetch,
  ) => {
    const archive = new Archive(url, {
      account: "shinano",
      db: "notes",
      ...(apiKey ? { apiKey } : {}),
      cache: { dir: `${dir}/cache`, mode },
      progress: false,
      retry: false,
      fetch,
    });
    const resources = await archive.resources();
    const { hits } = await archive.search({ q: "note" });
    return { resources, hits };
  };
  try {
    const recorded = await read("record", key, fetch);
    assert.ok(recorded.resources.numRows() > 0, "the private database has resources");
    await sandbox.close();

    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      sent++;
      return fetch(input, init);
    };
    const digests = (
      tables: typeof recorded,
    ) => [tableDigest(tables.resources).sha256, tableDigest(tables.hits).sha256];
    for (const apiKey of [key, SANDBOX_KEYS.harborRead, undefined]) {
      const replayed = await read("replay", apiKey, counting);
      assert.deepEqual(digests(replayed), digests(recorded), `replayed with ${apiKey ?? "no key"}`);
      assert.equal(provenance(replayed.resources)?.readWithKey, true);
    }
    assert.equal(sent, 0, "a replay sends nothing");
    assert.equal(provenance(recorded.resources)?.readWithKey, true);

    // The bundle says so, and neither it nor the recording holds the key or its secret.
    await saveBundle(`${dir}/bundle`, { draft: true, tables: { notes: recorded.resources } });
    const page = await Deno.readTextFile(`${dir}/bundle/index.html`);
    assert.match(page, /data-table="notes"[^>]*data-read-with-key="true"/);
    assert.match(page, /read with an API key: the table, and the recording/);
    const crate = await Deno.readTextFile(`${dir}/bundle/ro-crate-metadata.json`);
    assert.match(crate, /read with an API key, so the data may be private/);
    const secret = key.slice(key.indexOf(".") + 1);
    for (
      const [path, text] of [...await snapshot(`${dir}/cache`), ...await snapshot(`${dir}/bundle`)]
    ) {
      assert.ok(!text.includes(secret) && !text.includes(key), `${path} holds the key`);
    }
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
