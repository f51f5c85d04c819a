/**
 * Archive tables carry their provenance: search (hits and facets), the
 * catalogue, resources, SPARQL with its endpoint, OAI-PMH with its
 * responseDate and newest datestamp, ResourceSync with its list's time; a
 * keyed call keeps no trace of the key.
 */

import assert from "node:assert/strict";
import { provenance } from "../../mod.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { archiveOn, withSandbox } from "../archive/_sandbox.ts";

Deno.test("archive tables: operation, params, as-of, rows", async () => {
  await withSandbox(async (sandbox) => {
    const dir = await Deno.makeTempDir();
    try {
      const { archive } = archiveOn(sandbox, { cache: { dir, mode: "record" } });
      const service = sandbox.url.replace(/\/$/, "");

      const { hits, facets } = await archive.search({ q: "Tokyo", facet: ["dcterms:type"] });
      for (const table of [hits, ...facets.values()]) {
        const from = provenance(table)!;
        assert.equal(from.operation, "Archive.search");
        assert.equal(from.service, service);
        assert.deepEqual(from.params, {
          account: "shinano",
          db: "letters",
          q: "Tokyo",
          facet: ["dcterms:type"],
        });
        assert.equal(from.rows, table.numRows());
        assert.ok(from.cacheKeys.length >= 1);
      }
      for (
        const [operation, table] of [
          ["Archive.searchAll", await archive.searchAll({ q: "Tokyo" })],
          ["Archive.resources", await archive.resources()],
          ["Archive.databases", await archive.databases()],
        ] as const
      ) {
        assert.equal(provenance(table)?.operation, operation);
        assert.equal(provenance(table)?.rows, table.numRows());
      }

      const select = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 3";
      const rows = await archive.sparql(select);
      const fromSparql = provenance(rows)!;
      assert.equal(fromSparql.operation, "Archive.sparql");
      assert.equal(fromSparql.params.query, select);
      assert.match(
        String(fromSparql.asOf.endpoint),
        /^http:\/\/127\.0\.0\.1:\d+\/api\/.+\/sparql$/,
      );
      assert.equal(await archive.sparql("ASK { ?s ?p ?o }"), true);
      const all = await archive.sparqlAll(
        "SELECT ?s WHERE { ?s a ?c } ORDER BY ?s LIMIT 40",
        { pageSize: 20 },
      );
      assert.equal(provenance(all)?.operation, "Archive.sparqlAll");
      assert.equal(provenance(all)?.asOf.endpoint, fromSparql.asOf.endpoint);
      assert.equal(provenance(all)?.rows, all.numRows());

      const records = await archive.harvest({ metadataPrefix: "oai_dc" });
      const fromOai = provenance(records)!;
      assert.equal(fromOai.operation, "OaiPmh.harvest");
      assert.equal(fromOai.service, `${service}/shinano/letters/api/oai`);
      assert.deepEqual(fromOai.params, { metadataPrefix: "oai_dc" });
      assert.match(String(fromOai.asOf.responseDate), /^\d{4}-\d\d-\d\dT/);
      const newest = Math.max(...(records.array("datestamp") as Date[]).map((d) => d.getTime()));
      assert.equal(fromOai.asOf.latestDatestamp, new Date(newest).toISOString());
      assert.equal(provenance(await archive.listSets())?.operation, "OaiPmh.listSets");
      assert.equal(
        provenance(await archive.listMetadataFormats())?.operation,
        "OaiPmh.listMetadataFormats",
      );

      const list = await archive.resourceList();
      assert.equal(provenance(list)?.operation, "ResourceSync.resourceList");
      assert.match(String(provenance(list)?.asOf.at), /^\d{4}-\d\d-\d\dT/);
      const changes = await archive.changeList({ from: "2020-01-01" });
      assert.equal(provenance(changes)?.operation, "ResourceSync.changeList");
      assert.equal(provenance(changes)?.params.from, "2020-01-01");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("a keyed call's provenance holds no key and says a key was sent; its requests are recorded without it", async () => {
  await withSandbox(async (sandbox) => {
    const dir = await Deno.makeTempDir();
    try {
      const key = SANDBOX_KEYS.shinanoRead;
      const { archive } = archiveOn(sandbox, {
        apiKey: key,
        auth: "always",
        cache: { dir, mode: "record" },
      });
      const mine = await archive.databases({ scope: "mine" });
      const text = JSON.stringify(provenance(mine));
      assert.ok(provenance(mine));
      assert.ok(!text.includes(key.split(".")[1]), "no key secret");
      assert.ok(!text.includes(key.split(".")[0]), "no key id");
      // Recorded like any read (issue 45), keyed by the fact a key was sent, never by the key.
      assert.equal(provenance(mine)!.cacheKeys.length, 1, "the keyed read is recorded");
      assert.equal(provenance(mine)!.readWithKey, true);
      const files: string[] = [];
      const walk = async (folder: string) => {
        for await (const entry of Deno.readDir(folder)) {
          if (entry.isDirectory) await walk(`${folder}/${entry.name}`);
          else files.push(await Deno.readTextFile(`${folder}/${entry.name}`));
        }
      };
      await walk(dir);
      assert.ok(files.length > 0 && files.every((file) => !file.includes(key.split(".")[1])));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
