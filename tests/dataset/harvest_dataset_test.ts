import assert from "node:assert/strict";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { harvestDataset } from "../../lib/archive/oai/harvest_dataset.ts";
import { query } from "../../lib/dataset/query.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { failingOn } from "../archive/oai/_failing_fetch.ts";

const SITE = "acme/letters";

function client(url: string, fetcher: typeof fetch = fetch) {
  return new OaiPmh(`${url}/${SITE}/api/oai`, { progress: false, retry: false, fetch: fetcher });
}

async function parquetFiles(dir: string, relative = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${relative}`)) {
    const path = `${relative}${entry.name}`;
    if (entry.isDirectory) found.push(...await parquetFiles(dir, `${path}/`));
    else if (entry.name.endsWith(".parquet")) found.push(path);
  }
  return found.sort();
}

Deno.test("An interrupted partitioned harvest resumes: DuckDB counts every record once", async () => {
  const sandbox = startOaiSandbox({ pageSize: 10 });
  const dir = await Deno.makeTempDir();
  try {
    const hits = () => sandbox.providers[SITE].hits.get("ListRecords") ?? 0;
    // Flushes after pages 3 and 6; page 8 fails, so page 7 is held in memory only.
    await assert.rejects(
      harvestDataset(client(sandbox.url, failingOn(8)), dir, {
        flushRows: 25,
        partitionBy: "month",
      }),
      /Cannot reach the service|connection reset/,
    );
    const written = await parquetFiles(dir);
    assert.ok(written.length > 0, "the first run wrote files before it stopped");
    assert.ok(written.every((f) => /^month=\d{4}-\d{2}\/part-\d{6}-[0-9a-f]{8}\.parquet$/.test(f)));
    const firstRun = hits();

    const summary = await harvestDataset(client(sandbox.url), dir, {
      flushRows: 25,
      partitionBy: "month",
    });
    const expected = sandbox.records[SITE].map((r) => r.identifier).sort();
    assert.ok(hits() - firstRun < expected.length / 10, "the resumed run did not start over");
    assert.ok(summary.duplicates > 0, "records handed on twice were written once");
    assert.equal(summary.rows, expected.length);

    const counts = await query(
      "SELECT count(*)::INTEGER AS n, count(DISTINCT identifier)::INTEGER AS ids FROM letters",
      { views: { letters: dir } },
    );
    assert.deepEqual(counts.objects(), [{ n: expected.length, ids: expected.length }]);
    const ids = await query("SELECT identifier FROM letters ORDER BY identifier", {
      views: { letters: dir },
    });
    assert.deepEqual(ids.array("identifier"), expected);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("A harvested dataset has the harvest's columns and types, partitioned by month", async () => {
  const sandbox = startOaiSandbox({ pageSize: 100 });
  const dir = await Deno.makeTempDir();
  try {
    const oai = client(sandbox.url);
    await harvestDataset(oai, dir, { flushRows: 100, partitionBy: "month" });
    const table = await oai.harvest();
    const byMonth = new Map<string, number>();
    for (const when of table.array("datestamp") as Date[]) {
      const month = when.toISOString().slice(0, 7);
      byMonth.set(month, (byMonth.get(month) ?? 0) + 1);
    }
    const counts = await query(
      "SELECT month, count(*)::INTEGER AS n FROM letters GROUP BY month ORDER BY month",
      { views: { letters: dir } },
    );
    assert.deepEqual(
      counts.objects(),
      [...byMonth].sort(([a], [b]) => a.localeCompare(b)).map(([month, n]) => ({ month, n })),
    );
    const first = await query(
      `SELECT identifier, datestamp, setSpec, "dc:title" FROM letters WHERE identifier = '${
        table.get("identifier", 0)
      }'`,
      { views: { letters: dir } },
    );
    assert.deepEqual(first.objects(), [{
      identifier: table.get("identifier", 0),
      datestamp: table.get("datestamp", 0),
      setSpec: table.get("setSpec", 0),
      "dc:title": table.get("dc:title", 0),
    }]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("A rerun after a complete harvest appends only the changed records", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const dir = await Deno.makeTempDir();
  try {
    const oai = client(sandbox.url);
    const first = await harvestDataset(oai, dir, { partitionBy: "set" });
    const total = sandbox.records[SITE].length;
    assert.equal(first.rows, total);
    const again = await harvestDataset(oai, dir, { partitionBy: "set" });
    assert.deepEqual([again.rows, again.written], [total, 0]);
    const records = sandbox.records[SITE];
    records[5] = { ...records[5], datestamp: "2031-05-05T00:00:00Z", deleted: undefined };
    const changed = await harvestDataset(oai, dir, { partitionBy: "set" });
    assert.deepEqual([changed.rows, changed.written], [total + 1, 1]);
    const latest = await query(
      `SELECT count(*)::INTEGER AS n FROM (
         SELECT identifier FROM letters
         QUALIFY row_number() OVER (PARTITION BY identifier ORDER BY datestamp DESC) = 1)`,
      { views: { letters: dir } },
    );
    assert.equal(latest.get("n", 0), total);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
