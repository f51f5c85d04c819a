/**
 * OAI-PMH errors sent with a status other than 200: Zenodo (Invenio) answers
 * every protocol error with HTTP 422 and a complete OAI-PMH body. The body
 * is the authority whenever it is an OAI-PMH document: `noRecordsMatch` is an
 * empty table, the other codes are a ProtocolError with the repository's
 * code. Served with their recorded statuses from
 * tests/fixtures/external/oai/scythe-zenodo (see SOURCES.md).
 */

import assert from "node:assert/strict";
import { HttpError, ProtocolError } from "../../../lib/errors/errors.ts";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { readCassette, serveCassettes } from "./_oai_cassettes.ts";

const CASSETTES = [
  "scythe-zenodo/identify.json",
  "scythe-zenodo/list_records.json",
  "scythe-zenodo/list_identifiers.json",
  "scythe-zenodo/id_does_not_exist.json",
  "scythe-zenodo/get_record.json",
  "scythe-zenodo/list_metadata_formats.json",
];

function zenodo(server: { url: string }, warnings: string[] = []): OaiPmh {
  return new OaiPmh(`${server.url}/oai2d`, {
    progress: false,
    retry: false,
    warn: (m) => warnings.push(m),
  });
}

Deno.test("the recorded Zenodo errors really are HTTP 422 with an OAI-PMH body", () => {
  const errors = CASSETTES.flatMap(readCassette).filter((e) => e.status !== 200);
  assert.ok(errors.length >= 8);
  for (const exchange of errors) {
    assert.equal(exchange.status, 422);
    assert.match(exchange.body, /<OAI-PMH[\s>][\s\S]*<error code="\w+"/);
  }
});

Deno.test("Zenodo 422 noRecordsMatch: an empty table with the harvest's columns, for both verbs", async () => {
  const server = serveCassettes(CASSETTES);
  try {
    const oai = zenodo(server);
    const records = await oai.harvest({ set: "XXX" });
    assert.equal(records.numRows(), 0);
    assert.ok(records.columnNames().includes("dc:title"));
    const headers = await oai.harvest({ set: "XXX", verb: "ListIdentifiers" });
    assert.equal(headers.numRows(), 0);
    assert.deepEqual(headers.columnNames().slice(0, 4), [
      "identifier",
      "datestamp",
      "setSpec",
      "deleted",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("Zenodo 422 idDoesNotExist and badArgument: ProtocolErrors with the repository's code", async () => {
  const server = serveCassettes(CASSETTES);
  try {
    const oai = zenodo(server);
    const cases: [() => Promise<unknown>, string, RegExp][] = [
      [() => oai.getRecord("oai:zenodo.org:XXX"), "idDoesNotExist", /No matching identifier/],
      [
        () => oai.getRecord("oai:zenodo.org:10357859", "XXX"),
        "badArgument",
        /metadataPrefix does not exist/,
      ],
      [
        () => oai.listMetadataFormats({ identifier: "oai:zenodo.org:XXX" }),
        "idDoesNotExist",
        /No matching identifier/,
      ],
      [() => oai.harvest({ metadataPrefix: "XXX" }), "badArgument", /does not exist/],
      [
        () => oai.harvest({ metadataPrefix: "XXX", verb: "ListIdentifiers" }),
        "badArgument",
        /does not exist/,
      ],
    ];
    for (const [call, code, said] of cases) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ProtocolError, `${code}: got ${error}`);
      assert.ok(!(error instanceof HttpError));
      assert.equal(error.code, code);
      assert.match(error.message, said);
      assert.match(error.message, /HTTP 422/);
    }
  } finally {
    await server.close();
  }
});

Deno.test("Zenodo's 200 answers still read: a GetRecord and the oai_dc ListRecords chain", async () => {
  const server = serveCassettes(CASSETTES);
  const warnings: string[] = [];
  try {
    const oai = zenodo(server, warnings);
    const record = await oai.getRecord("oai:zenodo.org:10357859");
    assert.equal(record.identifier, "oai:zenodo.org:10357859");
    const table = await oai.harvest({});
    // The scythe authors kept three pages of three records.
    assert.equal(table.numRows(), 9);
  } finally {
    await server.close();
  }
});

Deno.test("a 4xx whose body is not an OAI-PMH document stays an HttpError with what the server said", async () => {
  const bodies = [
    ["<html><body>Unprocessable</body></html>", "text/html"],
    ['{"error":"no such endpoint"}', "application/json"],
    ["", "text/plain"],
  ];
  for (const [body, type] of bodies) {
    const server = serveLocal(() =>
      new Response(body, { status: 422, headers: { "content-type": type } })
    );
    try {
      const error = await zenodo(server).harvest({}).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof HttpError, `${type}: got ${error}`);
      assert.equal(error.status, 422);
    } finally {
      await server.close();
    }
  }
});

Deno.test("a Zenodo 422 noRecordsMatch recorded is replayed offline as the same empty table", async () => {
  const dir = await Deno.makeTempDir();
  const server = serveCassettes(CASSETTES);
  const endpoint = `${server.url}/oai2d`;
  try {
    const recording = new OaiPmh(endpoint, {
      progress: false,
      retry: false,
      warn() {},
      cache: { dir, mode: "record" },
    });
    assert.equal((await recording.harvest({ set: "XXX" })).numRows(), 0);
  } finally {
    await server.close();
  }
  try {
    // The server is gone: only the recording can answer.
    const replaying = new OaiPmh(endpoint, {
      progress: false,
      retry: false,
      warn() {},
      cache: { dir, mode: "replay" },
    });
    const table = await replaying.harvest({ set: "XXX" });
    assert.equal(table.numRows(), 0);
    assert.ok(table.columnNames().includes("identifier"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
