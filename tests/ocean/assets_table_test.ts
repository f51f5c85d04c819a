import assert from "node:assert/strict";
import { assetsTable, type Ddo } from "../../lib/ocean/mod.ts";

const DIR = new URL("../fixtures/ocean-ddo/", import.meta.url);

function fixtures(): [string, Ddo][] {
  return [...Deno.readDirSync(DIR)]
    .filter((entry) => entry.name.endsWith(".json"))
    .map((entry) => entry.name)
    .sort()
    .map((name) => [name, JSON.parse(Deno.readTextFileSync(new URL(name, DIR)))]);
}

// Fixtures are arbitrary JSON; the test reads them without a schema on purpose.
// deno-lint-ignore no-explicit-any
type Raw = Record<string, any>;

/** Where each promised column's value lives in a DDO of either version, read independently. */
function sources(ddo: Raw): Record<string, unknown> {
  const nft = ddo.indexedMetadata?.nft ?? ddo.nft;
  const event = ddo.event ?? ddo.indexedMetadata?.event;
  const compute = ddo.services?.find((s: Raw) => s.type === "compute")?.compute;
  const nonEmpty = (v: unknown) => (v === "" ? undefined : v);
  return {
    did: ddo.id,
    name: ddo.metadata?.name,
    type: ddo.metadata?.type,
    description: ddo.metadata?.description,
    author: ddo.metadata?.author,
    license: ddo.metadata?.license,
    tags: ddo.metadata?.tags,
    created: ddo.metadata?.created,
    updated: ddo.metadata?.updated,
    chainId: ddo.chainId,
    nftAddress: nonEmpty(ddo.nftAddress) ?? nonEmpty(nft?.address),
    owner: nonEmpty(nft?.owner),
    nftState: nft?.state,
    datatokens: ddo.datatokens?.length ? ddo.datatokens : undefined,
    serviceIds: ddo.services,
    serviceTypes: ddo.services,
    allowRawAlgorithm: compute?.allowRawAlgorithm,
    allowNetworkAccess: compute?.allowNetworkAccess,
    serviceEndpoint: ddo.services?.find((s: Raw) => s.serviceEndpoint)?.serviceEndpoint,
    algorithmLanguage: ddo.metadata?.algorithm?.language,
    algorithmImage: ddo.metadata?.algorithm?.container?.image,
    indexedBlock: event?.block,
    indexedAt: event?.datetime,
  };
}

Deno.test("assetsTable reads every real DDO fixture without losing a promised field", () => {
  const all = fixtures();
  assert.equal(all.length, 6);
  const table = assetsTable(all.map(([, ddo]) => ddo));
  assert.equal(table.numRows(), all.length);
  all.forEach(([name, ddo], row) => {
    for (const [column, source] of Object.entries(sources(ddo as Raw))) {
      if (source === undefined || source === null) continue;
      const value = table.get(column, row);
      assert.notEqual(value, null, `${name}: ${column} lost (source ${JSON.stringify(source)})`);
    }
    const value = (column: string) => table.get(column, row);
    assert.equal(value("did"), ddo.id);
    assert.equal(value("computeAllowed"), ddo.services.some((s) => s.type === "compute"));
    assert.deepEqual(value("serviceIds"), ddo.services.map((s) => s.id));
    if (ddo.metadata.tags) assert.deepEqual(value("tags"), ddo.metadata.tags);
    assert.equal(
      (value("created") as Date).getTime(),
      Date.parse(ddo.metadata.created),
      `${name}: created`,
    );
  });
});

Deno.test("assetsTable reads zone-less indexer dates as UTC and joins image and tag", () => {
  const ddos = Object.fromEntries(fixtures());
  const table = assetsTable([ddos["market__ddoExtended.json"], ddos["ocean-cli__pythonAlgo.json"]]);
  assert.equal(
    (table.get("indexedAt", 0) as Date).toISOString(),
    "2022-06-07T23:18:26.000Z",
  );
  assert.equal(table.get("indexedBlock", 0), 14923501);
  assert.equal(table.get("nftStateLabel", 0), "active");
  assert.deepEqual(table.get("datatokens", 0), ["0x83ed34A81C83bd6e4dDe99C707F4e7137b1FD1b8"]);
  assert.equal(table.get("algorithmImage", 1), "oceanprotocol/algo_dockers:python-branin");
  assert.equal(table.get("nftStateLabel", 1), "unlisted");
  assert.equal(table.get("indexedAt", 1), null);
});
