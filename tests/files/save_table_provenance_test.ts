/**
 * saveTable keeps a table's provenance and readTable restores it: in the
 * schema metadata of Parquet and Arrow files, in a `.provenance.json`
 * sidecar beside CSV and JSON files; the data columns stay as they were.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { tableFromIPC } from "@uwdata/flechette";
import { readTable, saveTable } from "../../lib/files/mod.ts";
import { attachProvenance, provenance } from "../../lib/table/provenance.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

function fromSubgraph() {
  return attachProvenance(aq.table({ id: ["a", "b", "c"], n: [1, 2, 3] }), {
    service: "http://127.0.0.1:8002/subgraphs/name/oceanprotocol/ocean-subgraph",
    operation: "Subgraph.orders",
    params: { consumer: "0xabc", since: "2026-01-01T00:00:00.000Z" },
    tidepoolVersion: "0.1.0",
    startedAt: "2026-11-23T10:00:00.000Z",
    endedAt: "2026-11-23T10:00:02.000Z",
    asOf: { block: 11_459_549, blockTime: "2026-06-30T00:00:00.000Z" },
    cacheKeys: ["k1", "k2"],
  });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("every format keeps the provenance through saveTable and readTable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = fromSubgraph();
    for (const extension of ["csv", "json", "parquet", "arrow"]) {
      const path = `${dir}/orders.${extension}`;
      await saveTable(path, table);
      const back = await readTable(path);
      assert.deepEqual(provenance(back), provenance(table), extension);
      assert.deepEqual(back.columnNames(), ["id", "n"], `${extension}: no provenance column`);
      const sidecar = extension === "csv" || extension === "json";
      assert.equal(await exists(`${path}.provenance.json`), sidecar, `${extension} sidecar`);
      if (sidecar) {
        const saved = JSON.parse(await Deno.readTextFile(`${path}.provenance.json`));
        assert.equal(saved.operation, "Subgraph.orders");
      }
    }
    // Another tool reads the Arrow file's schema metadata.
    const arrow = tableFromIPC(await Deno.readFile(`${dir}/orders.arrow`));
    const kept = JSON.parse(arrow.schema.metadata!.get("tidepool:provenance")!);
    assert.equal(kept.asOf.block, 11_459_549);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a table without provenance removes an old sidecar and reads back without", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.csv`;
    await saveTable(path, fromSubgraph());
    const derived = fromSubgraph().filter((d: { n: number }) => d.n > 1);
    await saveTable(path, derived);
    assert.equal(await exists(`${path}.provenance.json`), false);
    assert.equal(provenance(await readTable(path)), undefined);
    await saveTable(`${dir}/t.parquet`, derived);
    assert.equal(provenance(await readTable(`${dir}/t.parquet`)), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a sidecar changed into something else is an error that names it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.json`;
    await saveTable(path, fromSubgraph());
    await Deno.writeTextFile(`${path}.provenance.json`, '{"operation": 3}');
    await assert.rejects(
      () => readTable(path),
      (error: unknown) =>
        error instanceof TidepoolError && error.message.includes("t.json.provenance.json") &&
        /no text for service, operation/.test(error.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a saved table whose rows were changed since is refused its provenance", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/orders.csv`;
    await saveTable(path, fromSubgraph());
    // A row removed by hand: the sidecar still speaks of the three the call returned.
    const lines = (await Deno.readTextFile(path)).trimEnd().split("\n");
    await Deno.writeTextFile(path, `${lines.slice(0, -1).join("\n")}\n`);
    await assert.rejects(
      () => readTable(path),
      (error: unknown) =>
        error instanceof TidepoolError && error.message.includes("orders.csv.provenance.json") &&
        /describes 3 rows, the table read has 2/.test(error.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
