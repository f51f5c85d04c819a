/**
 * `tidepool harvest` of an OAI-PMH repository that requires a key, in a
 * query parameter of its own name or as a bearer token: the key from the
 * environment reaches the repository on every request, and no part of it
 * is left in the output, its provenance, the state, the ledger, the
 * recording or anything printed; a recording made with one key replays
 * without it. Runs `runCli` in this process against a loopback repository
 * that refuses a request without the key.
 */

import assert from "node:assert/strict";
import { readTable } from "../../lib/files/read_table.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { envelope, recordXml } from "./_hostile_oai.ts";
import { capture } from "./_cli_capture.ts";

const KEY = "oai-key-5c1e9a7f3b2d8046e1";
const OTHER_KEY = "oai-key-other-77ab31c9d2e4";

/** A repository that answers only a request that carries a known key, the way `how` says. */
function keyedOai(how: (request: Request, query: URLSearchParams) => string | null) {
  const requests: string[] = [];
  const keys: (string | null)[] = [];
  const records = [
    { identifier: "oai:k:1", datestamp: "2026-01-01T00:00:00Z" },
    { identifier: "oai:k:2", datestamp: "2026-01-02T00:00:00Z" },
  ];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const query = new URL(request.url).searchParams;
    requests.push(request.url);
    const key = how(request, query);
    keys.push(key);
    if (requests.length > 200) return new Response("enough", { status: 429 });
    if (key !== KEY && key !== OTHER_KEY) return new Response("a key is required", { status: 401 });
    const xml = query.get("verb") === "Identify"
      ? envelope(
        "Identify",
        "<Identify><repositoryName>keyed</repositoryName><baseURL>http://127.0.0.1/oai</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@example.org</adminEmail><earliestDatestamp>2000-01-01T00:00:00Z</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>",
      )
      : envelope(
        "ListRecords",
        `<ListRecords>${
          records.filter((r) => !query.has("from") || r.datestamp >= query.get("from")!)
            .map(recordXml).join("")
        }</ListRecords>`,
      );
    return new Response(xml, { headers: { "content-type": "text/xml" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/oai`,
    records,
    requests,
    keys,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Every 8-character part of the key found in any file below `dir` or in `text`. */
async function keyParts(dir: string, text: string, key: string): Promise<string[]> {
  let all = text;
  async function visit(path: string) {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory) await visit(`${path}/${entry.name}`);
      else if (entry.isFile) all += await Deno.readTextFile(`${path}/${entry.name}`);
    }
  }
  await visit(dir);
  const found: string[] = [];
  for (let i = 0; i + 8 <= key.length; i++) {
    if (all.includes(key.slice(i, i + 8))) found.push(key.slice(i, i + 8));
  }
  return found;
}

Deno.test("tidepool harvest: a key in a query parameter of the repository's own name", async () => {
  await using oai = keyedOai((_, query) => query.get("wskey"));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-keyed-" });
  const args = (to: string) => [
    "harvest",
    oai.url,
    "--api-key-env",
    "OAI_KEY",
    "--api-key-param",
    "wskey",
    "--to",
    to,
  ];
  try {
    const first = await capture([...args(`${dir}/l.csv`), "--record", `${dir}/rec`], {
      env: { OAI_KEY: `${KEY}\n` },
    });
    assert.equal(first.code, EXIT.ok, first.stderr);
    assert.ok(oai.keys.length > 0 && oai.keys.every((key) => key === KEY), "every request keyed");
    assert.equal((await readTable(`${dir}/l.csv`)).numRows(), 2);
    oai.records.push({ identifier: "oai:k:3", datestamp: "2026-02-01T00:00:00Z" });
    // Another key the next night: the same harvest, its state and ledger still its own.
    const second = await capture(args(`${dir}/l.csv`), { env: { OAI_KEY: OTHER_KEY } });
    assert.equal(second.code, EXIT.ok, second.stderr);
    assert.match(second.stderr, /1 new or changed record merged/);
    const printed = first.stdout + first.stderr + second.stdout + second.stderr;
    assert.deepEqual(await keyParts(dir, printed, KEY), [], "no part of the key is kept");
    assert.deepEqual(await keyParts(dir, printed, OTHER_KEY), [], "nor of the other");
    // The recording replays offline, with no key at all.
    const asked = oai.requests.length;
    const replay = await capture([
      "harvest",
      oai.url,
      "--to",
      `${dir}/r.csv`,
      "--replay",
      `${dir}/rec`,
    ]);
    assert.equal(replay.code, EXIT.ok, replay.stderr);
    assert.equal(oai.requests.length, asked, "nothing sent in replay");
    assert.equal((await readTable(`${dir}/r.csv`)).numRows(), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest: a key as a bearer token, and the ways to get it wrong", async (t) => {
  await using oai = keyedOai((request) =>
    request.headers.get("authorization")?.replace(/^Bearer /, "") ?? null
  );
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-keyed-bearer-" });
  try {
    await t.step("the key as Authorization: Bearer", async () => {
      const run = await capture(
        ["harvest", oai.url, "--api-key-env", "OAI_KEY", "--to", `${dir}/b.ndjson`],
        { env: { OAI_KEY: KEY } },
      );
      assert.equal(run.code, EXIT.ok, run.stderr);
      assert.ok(oai.keys.every((key) => key === KEY));
      assert.deepEqual(await keyParts(dir, run.stdout + run.stderr, KEY), []);
    });
    await t.step("no key: the repository's refusal", async () => {
      const run = await capture(["harvest", oai.url, "--to", "-"]);
      assert.equal(run.code, EXIT.http, run.stderr);
    });
    await t.step("--api-key-param without --api-key-env", async () => {
      const asked = oai.requests.length;
      const run = await capture(["harvest", oai.url, "--api-key-param", "wskey"]);
      assert.equal(run.code, EXIT.usage, run.stderr);
      assert.equal(oai.requests.length, asked);
    });
    await t.step("a key given where the variable's name belongs", async () => {
      const key = "JBSWY3DPEHPK3PXPK5QWY3DPEB3W64TM";
      const run = await capture(["harvest", oai.url, "--api-key-env", key]);
      assert.equal(run.code, EXIT.usage, run.stderr);
      assert.deepEqual(await keyParts(dir, run.stderr, key), [], run.stderr);
    });
    await t.step("a key already in the endpoint's query", async () => {
      const run = await capture(
        ["harvest", `${oai.url}?wskey=x`, "--api-key-env", "OAI_KEY", "--api-key-param", "wskey"],
        { env: { OAI_KEY: KEY } },
      );
      assert.equal(run.code, EXIT.usage, run.stderr);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
