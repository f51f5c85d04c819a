/**
 * A file that appears, or changes, at `--to` while a command is running
 * (the user saves a table there from a notebook, another program writes
 * it) is the user's: whose the file is was decided before the first request,
 * but the write comes minutes later, after the last page. Each test writes
 * the user's file from inside the server's answer (so exactly between the
 * check and the write, with no timing guessed), then reads the disk: the
 * user's bytes and inode are kept.
 */

import assert from "node:assert/strict";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { hostileOai, type HostileRecord } from "./_hostile_oai.ts";
import { capture } from "./_cli_capture.ts";

const MINE = "my own numbers\n1,2,3\n";
/** The user's edit of a harvested file: still a table of two records, as the harvest's was. */
const EDITED = "identifier,title\noai:x:1,my reading\noai:x:2,my other reading\n";

function records(identifiers: readonly string[]): HostileRecord[] {
  return identifiers.map((identifier) => ({ identifier, datestamp: "2026-01-01T00:00:00Z" }));
}

/** A SPARQL endpoint on loopback that runs `during` before it answers. */
function sparqlEndpoint(during: () => Promise<void>) {
  const count = "http://www.w3.org/2001/XMLSchema#integer";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const query = new URL(req.url).searchParams.get("query") ?? "";
    // tidepool counts a SELECT's rows first, then reads its pages.
    const [name, cell] = query.includes("tidepool_count")
      ? ["tidepool_count", { type: "literal", datatype: count, value: "1" }]
      : ["s", { type: "literal", value: "from the server" }];
    if (name === "s") await during();
    return new Response(
      JSON.stringify({ head: { vars: [name] }, results: { bindings: [{ [name]: cell }] } }),
      { headers: { "content-type": "application/sparql-results+json" } },
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/sparql`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function assertKept(path: string, text: string, ino: number | null): Promise<void> {
  assert.equal(await Deno.readTextFile(path), text, "the user's bytes are kept");
  const info = await Deno.lstat(path);
  assert.ok(info.isFile);
  assert.equal(info.ino, ino, "the user's file itself, not a copy");
}

Deno.test("tidepool harvest: a user's file that appears at --to during the harvest is kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-race-harvest-" });
  const to = `${dir}/letters.csv`;
  let ino: number | null = null;
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]), async (query) => {
    if (query.get("verb") !== "ListRecords") return undefined;
    await Deno.writeTextFile(to, MINE);
    ino = (await Deno.lstat(to)).ino;
    return undefined;
  });
  try {
    const run = await capture(["harvest", oai.url, "--to", to]);
    assert.equal(run.code, EXIT.failed, run.stderr);
    assert.match(run.stderr, /Refused to replace .*letters\.csv/);
    await assertKept(to, MINE, ino);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest: the harvest's own file edited by the user during the next run is kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-race-harvest2-" });
  const to = `${dir}/letters.csv`;
  let edit = false;
  let ino: number | null = null;
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]), async (query) => {
    if (!edit || query.get("verb") !== "ListRecords") return undefined;
    // The user edits the file in place (same inode), as an editor saving over it may.
    await Deno.writeTextFile(to, EDITED);
    ino = (await Deno.lstat(to)).ino;
    return undefined;
  });
  try {
    const first = await capture(["harvest", oai.url, "--to", to]);
    assert.equal(first.code, 0, first.stderr);
    edit = true;
    oai.records.push({ identifier: "oai:x:3", datestamp: "2026-02-01T00:00:00Z" });
    const second = await capture(["harvest", oai.url, "--to", to]);
    assert.equal(second.code, EXIT.failed, second.stderr);
    assert.match(second.stderr, /Refused to replace .*letters\.csv/);
    await assertKept(to, EDITED, ino);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool sparql: a user's file that appears or changes at --to during the query is kept", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-race-sparql-" });
  let user: (() => Promise<void>) | undefined;
  await using endpoint = sparqlEndpoint(async () => await user?.());
  try {
    for (const name of ["fresh.csv", "fresh.ndjson", "fresh.parquet", "again.csv"]) {
      await t.step(name, async () => {
        const to = `${dir}/${name}`;
        if (name === "again.csv") {
          user = undefined;
          const first = await capture([
            "sparql",
            endpoint.url,
            "SELECT ?s WHERE { ?s ?p ?o }",
            "--to",
            to,
          ]);
          assert.equal(first.code, 0, first.stderr);
        }
        let ino: number | null = null;
        user = async () => {
          await Deno.writeTextFile(to, MINE);
          ino = (await Deno.lstat(to)).ino;
        };
        const run = await capture([
          "sparql",
          endpoint.url,
          "SELECT ?s WHERE { ?s ?p ?o }",
          "--to",
          to,
        ]);
        assert.equal(run.code, EXIT.failed, run.stderr);
        assert.match(run.stderr, /Refused to replace /);
        await assertKept(to, MINE, ino);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
