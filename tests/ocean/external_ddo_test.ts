/**
 * Real DDOs (tests/fixtures/external/ddo, see SOURCES.md there): every one,
 * 4.0/4.1 to 4.7 and ddo.js's 5.0.0 `credentialSubject` form, reads into the
 * same assets-table columns, checked against the documents themselves.
 */

import assert from "node:assert/strict";
import { assetsTable } from "../../lib/ocean/assets_table.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { ProtocolError } from "../../lib/errors/errors.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const DIR = new URL("../fixtures/external/ddo/", import.meta.url);
const FILES = [
  "aquarius/ddo_event_sample_v4.json",
  "aquarius/ddo_sample1_v4.json",
  "aquarius/ddo_sample_algorithm_v4.json",
  "docs/instantiate-ddo.json",
  "market/algorithmAquarius.json",
  "market/datasetAquarius.json",
  "market/datasetsWithAccessDetails.96451b4.json",
  "ocean-node/ddo.json",
];

/** The DDOs of a fixture file, by name: a DDO, a list, or an object of named DDOs. */
function ddosOf(file: string): [string, Json][] {
  const json = JSON.parse(Deno.readTextFileSync(new URL(file, DIR)));
  if (Array.isArray(json)) return json.map((ddo, i) => [`${file}[${i}]`, ddo]);
  if ("id" in json) return [[file, json]];
  return Object.entries(json as Record<string, Json>).map(([name, ddo]) => [
    `${file} ${name}`,
    ddo,
  ]);
}

const ALL = FILES.flatMap(ddosOf);
const named = (name: string) => ALL.find(([n]) => n.endsWith(name))![1] as unknown as Ddo;
const rowOf = (ddo: Ddo) => assetsTable([ddo]).objects()[0] as Row;
const iso = (value: unknown) => (value as Date | null)?.toISOString() ?? null;

Deno.test("external DDOs: the fixture set has every form", () => {
  assert.equal(
    FILES.length,
    [...Deno.readDirSync(DIR)].flatMap((d) => [
      ...Deno.readDirSync(new URL(`${d.name}/`, DIR)),
    ]).length,
  );
  assert.equal(ALL.length, 30);
  const versions = new Set(ALL.map(([, ddo]) => ddo.version));
  assert.deepEqual([...versions].sort(), ["4.1.0", "4.5.0", "4.7.0", "5.0.0", "deprecated"]);
});

Deno.test("external DDOs: every DDO's row holds what the document says", () => {
  const table = assetsTable(ALL.map(([, ddo]) => ddo as unknown as Ddo));
  assert.equal(table.numRows(), ALL.length);
  const rows = table.objects() as Row[];
  ALL.forEach(([name, ddo], i) => {
    const row = rows[i];
    const body = (ddo.credentialSubject ?? ddo) as Json;
    const metadata = (body.metadata ?? {}) as Json;
    assert.equal(row.did, ddo.id, name);
    assert.equal(row.version, ddo.version, name);
    assert.equal(row.chainId, body.chainId, name);
    assert.equal(row.name, metadata.name ?? null, name);
    assert.equal(row.type, metadata.type ?? null, name);
    assert.equal(row.author, metadata.author ?? null, name);
    assert.deepEqual(row.tags, metadata.tags ?? [], name);
    // Every text field is text, never "[object Object]".
    for (const column of ["description", "license"]) {
      const value = row[column];
      assert.ok(value === null || (typeof value === "string" && !value.includes("[object")));
      assert.equal(value === null, metadata[column] === undefined, `${name} ${column}`);
    }
    // A date the document gives is a date in the table, never dropped.
    for (const column of ["created", "updated"]) {
      assert.equal(row[column] === null, metadata[column] === undefined, `${name} ${column}`);
    }
    const services = (body.services ?? []) as Json[];
    assert.deepEqual(row.serviceIds, services.map((s) => s.id), name);
    assert.equal(row.computeAllowed, services.some((s) => s.type === "compute"), name);
  });
});

Deno.test("external DDOs: 5.0.0 reads its credentialSubject, description and license", () => {
  const row = rowOf(named("instantiate-ddo.json DDOExampleV5"));
  assert.equal(row.version, "5.0.0");
  assert.equal(row.name, "DDO 5.0.0 Asset");
  assert.equal(row.description, "New asset published using ocean CLI tool with version 5.0.0");
  assert.equal(row.license, "https://market.oceanprotocol.com/terms");
  assert.deepEqual(row.tags, ["version-5", "new-schema"]);
  assert.equal(iso(row.created), "2024-10-03T14:35:20.000Z");
  assert.equal(row.chainId, 137);
  assert.equal(row.nftAddress, "0xBB1081DbF3227bbB233Db68f7117114baBb43656");
  assert.equal(row.owner, "0x0DB823218e337a6817e6D7740eb17635DEAdafAF");
  assert.equal(row.nftStateLabel, "active");
  assert.equal(row.indexedBlock, 39326976);
  assert.equal(iso(row.indexedAt), "2023-02-15T16:42:22.000Z");
  assert.deepEqual(row.datatokens, ["0xfF4AE9869Cafb5Ff725f962F3Bbc22Fb303A8aD8"]);
  assert.equal(row.serviceEndpoint, "https://v4.provider.oceanprotocol.com");
});

Deno.test("external DDOs: the docs' 4.1.0 and 5.0.0 examples of one NFT share columns", () => {
  const v4 = rowOf(named("instantiate-ddo.json DDOExampleV4"));
  const v5 = rowOf(named("instantiate-ddo.json DDOExampleV5"));
  for (const column of ["type", "license", "nftAddress", "chainId", "owner", "indexedBlock"]) {
    assert.deepEqual(v5[column], v4[column], column);
  }
  assert.equal(typeof v4.description, "string");
  assert.equal(v4.version, "4.1.0");
  // 5.0 names its method `did:ope`; the hash is the same asset.
  assert.equal(String(v5.did).split(":")[2], String(v4.did).split(":")[2]);
});

Deno.test("external DDOs: Aquarius's loose dates are read as the instant they name", () => {
  const sample = rowOf(named("aquarius/ddo_sample1_v4.json"));
  // `-05:00Z`: an offset with a stray Z; the offset is what the writer meant.
  assert.equal(iso(sample.created), "2000-10-31T06:30:00.000Z");
  assert.equal(iso(sample.updated), "2000-10-31T06:30:00.000Z");
  const algorithm = rowOf(named("aquarius/ddo_sample_algorithm_v4.json"));
  assert.equal(iso(algorithm.created), "2019-02-08T08:13:49.000Z", "zone-less is UTC");
  assert.equal(algorithm.type, "algorithm");
  const market = rowOf(named("datasetsWithAccessDetails.96451b4.json[10]"));
  assert.equal(iso(market.created), "2022-10-04T17:42:13.745Z", "microseconds, zone-less");
});

Deno.test("external DDOs: a deprecated DDO is a row with its state, not an error", () => {
  const row = rowOf(named("instantiate-ddo.json deprecatedDDO"));
  assert.equal(row.version, "deprecated");
  assert.equal(row.name, null);
  assert.equal(row.nftStateLabel, "unlisted");
  assert.deepEqual(row.serviceIds, []);
});

Deno.test("external DDOs: searchAssets over the 14 market DDOs and the 5.0.0 one", async () => {
  const market = ddosOf("market/datasetsWithAccessDetails.96451b4.json").map(([, d]) => d);
  const documents = [...market, named("instantiate-ddo.json DDOExampleV5")];
  let requests = 0;
  const server = serveLocal(async (request) => {
    requests++;
    // The default body is Elasticsearch-style: from and size.
    const body = await request.json();
    const hits = documents.slice(body.from, body.from + body.size).map((document) => ({
      document,
    }));
    return Response.json([{ found: documents.length, hits, page: body.from / body.size + 1 }]);
  });
  try {
    const node = new OceanNode(server.url, { progress: false, retry: false });
    const table = await node.searchAssets({}, { pageSize: 10 });
    assert.equal(table.numRows(), 15);
    // Two pages, and the node's version for the table's provenance (asked once per client).
    assert.equal(requests, 3);
    const v5 = (table.objects() as Row[]).find((r) => r.version === "5.0.0")!;
    assert.equal(v5.license, "https://market.oceanprotocol.com/terms");
    // The client-side date check reads the 5.0.0 creation date too.
    const recent = await node.searchAssets({ createdAfter: "2024-01-01" });
    assert.ok((recent.array("version") as string[]).includes("5.0.0"));
  } finally {
    await server.close();
  }
});

Deno.test("strict: a DDO of an unknown form warns, or fails with strict", async () => {
  // ocean-node's incorrectDDO is a 4.1.0 without metadata; a version 9 is unknown outright.
  const future = {
    ...named("instantiate-ddo.json DDOExampleV4"),
    id: `did:op:${"f".repeat(64)}`,
    version: "9.0.0",
  };
  const documents = [...ALL.map(([, d]) => d as unknown as Ddo), future];
  const server = serveLocal(async (request) => {
    // The default body is Elasticsearch-style: from and size.
    const body = await request.json();
    const hits = documents.slice(body.from, body.from + body.size).map((document) => ({
      document,
    }));
    return Response.json([{ found: documents.length, hits, page: body.from / body.size + 1 }]);
  });
  try {
    const warnings: string[] = [];
    const node = new OceanNode(server.url, {
      progress: false,
      retry: false,
      warn: (m) => warnings.push(m),
    });
    const table = node.assetsTable(documents);
    assert.equal(table.numRows(), 31);
    const [warning] = warnings;
    assert.match(warning, /^2 DDOs of a form tidepool does not know/);
    assert.match(warning, /version 4\.1\.0 without metadata/);
    assert.match(warning, /version 9\.0\.0/);
    assert.throws(
      () => node.assetsTable(documents, { strict: true }),
      (e: unknown) =>
        e instanceof ProtocolError && e.code === "unknownShape" &&
        /A DDO of a form tidepool does not know: \(no id\) \(version 4\.1\.0 without metadata\)/
          .test(e.message),
    );
    const searched = await node.searchAssets({}, { pageSize: 10 });
    // Recordings share DIDs; the search keeps each DID once.
    assert.equal(searched.numRows(), new Set(documents.map((d) => d.id)).size);
    // (ocean-node's drafts all have the id "", so incorrectDDO is dropped as a repeat.)
    assert.ok(
      warnings.slice(1).some((w) => /^1 DDOs of a form .*version 9\.0\.0/.test(w)),
      warnings.join("\n"),
    );
    const refused = await node.searchAssets({}, { strict: true }).catch((e) => e);
    assert.ok(refused instanceof ProtocolError && refused.code === "unknownShape", String(refused));
  } finally {
    await server.close();
  }
});

Deno.test("external DDOs: the sandbox node serving the recorded DDOs, 5.0.0 among them", async () => {
  const market = ddosOf("market/datasetsWithAccessDetails.96451b4.json").map(([, d]) => d);
  const v5 = named("instantiate-ddo.json DDOExampleV5");
  const ddos = [...market, v5] as unknown as Ddo[];
  const sandbox = startOceanSandbox({ ddos, compute: false });
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const table = await node.searchAssets({}, { includeUnlisted: true });
    assert.equal(table.numRows(), 15);
    const row = (table.objects() as Row[]).find((r) => r.did === v5.id)!;
    assert.equal(row.version, "5.0.0");
    assert.equal(row.description, "New asset published using ocean CLI tool with version 5.0.0");
    assert.equal(row.license, "https://market.oceanprotocol.com/terms");
    const served = await node.ddo(v5.id);
    assert.deepEqual(node.assetsTable([served]).objects()[0], row);
  } finally {
    await sandbox.close();
  }
});
