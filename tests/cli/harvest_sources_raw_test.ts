/**
 * `tidepool harvest --sources F --to DIR/ --raw` against two real Catmandu
 * OAI-PMH providers, three sources (two sets of one provider, the whole of
 * the other), two nights: every row's `raw` is its `<record>` as the
 * provider sent it (its pages fetched apart), the second night adds only
 * the changed, new and deleted records, each once, and the first night's
 * rows keep their XML.
 */

import assert from "node:assert/strict";
import { query } from "../../lib/dataset/query.ts";
import { type OaiSource, sourceName } from "../../lib/archive/oai/harvest_sources.ts";
import {
  oaiId,
  type ProviderRecord,
  recordsAsSent,
  startProvider,
} from "../archive/oai/_provider_records.ts";
import { runTidepool } from "./_run_cli.ts";

const T = "2024-05-06T07:08:09Z";

function records(prefix: string, sets: string[], n: number): ProviderRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    _id: `${prefix}${String(i).padStart(2, "0")}`,
    datestamp: i >= n - 2 ? T : `2024-05-0${1 + (i % 5)}T00:00:0${i % 10}Z`,
    sets: [sets[i % sets.length]],
    title: [`${prefix} ${i} & <more>`],
    creator: i % 3 ? [`Someone ${i}`] : [],
  }));
}

Deno.test("tidepool harvest --sources --raw: each record as sent, on two nights", async () => {
  const nightA = records("a", ["maps", "letters"], 14);
  const nightB = records("b", ["misc"], 9);
  await using a = await startProvider(nightA, 4);
  await using b = await startProvider(nightB, 3);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-sources-raw-" });
  try {
    const sources: OaiSource[] = [
      { url: a.url, set: "maps" },
      { url: a.url, set: "letters" },
      { url: b.url },
    ];
    await Deno.writeTextFile(`${dir}/list.json`, JSON.stringify(sources));
    const env = { TIDEPOOL_STATE_DIR: `${dir}/state` };
    const harvest = () =>
      runTidepool(["harvest", "--sources", "list.json", "--to", "out/", "--raw"], {
        cwd: dir,
        env,
      });
    /** Every (source, identifier, raw) the providers send now, as one key each. */
    const sent = async () => {
      const keys: string[] = [];
      for (const source of sources) {
        const name = sourceName({ ...source, metadataPrefix: "oai_dc" });
        const args = `metadataPrefix=oai_dc${source.set ? `&set=${source.set}` : ""}`;
        for (const [id, xml] of await recordsAsSent(source.url, "ListRecords", args)) {
          keys.push(`${name}\n${id}\n${xml}`);
        }
      }
      return keys;
    };
    /** Every row of the dataset as the same key, with how many rows each has. */
    const held = async () => {
      const table = await query("SELECT source, identifier, raw FROM oai", {
        views: { oai: `${dir}/out` },
      });
      const counts = new Map<string, number>();
      for (const row of table.objects() as Record<string, string>[]) {
        const key = `${row.source}\n${row.identifier}\n${row.raw}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    };

    const first = await harvest();
    assert.equal(first.code, 0, first.stderr);
    const night1 = await sent();
    assert.equal(night1.length, nightA.length + nightB.length);
    assert.deepEqual(await held(), new Map(night1.map((key) => [key, 1])));

    // Night 2: a record changed, one deleted, one new in the last run's second, one later.
    nightA[1] = { ...nightA[1], datestamp: "2024-05-07T00:00:00Z", title: ["Changed <again>"] };
    nightA[2] = { _id: "a02", datestamp: "2024-05-07T00:00:01Z", sets: ["maps"], deleted: true };
    nightA.push({ _id: "a14", datestamp: T, sets: ["letters"], title: ["Same second"] });
    nightB.push({
      _id: "b09",
      datestamp: "2024-05-08T00:00:00Z",
      sets: ["misc"],
      title: ["Later"],
    });
    await a.restart(nightA);
    await b.restart(nightB);
    const second = await harvest();
    assert.equal(second.code, 0, second.stderr);
    const night2 = await sent();
    const want = new Map([...night1, ...night2].map((key) => [key, 1]));
    const got = await held();
    assert.deepEqual(
      got,
      want,
      "the first night's rows as they were, the new ones as sent, each once",
    );
    const added = [...got.keys()].filter((key) => !night1.includes(key))
      .map((key) => key.split("\n")[1]).sort();
    assert.deepEqual(added, ["a01", "a02", "a14", "b09"].map(oaiId));
    const deleted = [...got.keys()].find((key) =>
      key.includes(oaiId("a02")) && key.includes("deleted")
    );
    assert.ok(deleted, "the deletion's header as sent");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
