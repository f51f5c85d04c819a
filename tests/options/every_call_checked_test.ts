/**
 * Every public call that takes options checks them at its door: an unknown
 * key is refused, naming the call, before any request. The list of calls
 * comes from `deno doc` of mod.ts, so a new public call with options and no
 * check fails here until it gets one (or is named below as taking data for
 * the server rather than options).
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as tidepool from "../../mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Parameters that hold options, by the names public calls give them. */
const OPTION_PARAMETERS = new Set(["options", "parameters", "filters", "filter", "pathOrOptions"]);

/**
 * Public calls whose object parameter is not options: a record for the
 * server to store (checked by the server against its own schema), a
 * sink's progress note, or the lower-level table and client builders
 * that adapters use with options of their own.
 */
const NOT_OPTIONS = new Set([
  "new HttpClient",
  "HttpClient.progress",
  "Archive.createDatabase",
  "Archive.updateSettings",
  "Archive.createResource",
  "Archive.updateResource",
  "Archive.createEntity",
  "buildTable",
  "deriveProvenance", // its last argument is parameters to record, any names
  "new TableBuilder",
  "new DatasetWriter",
]);

/** The public calls with an options parameter, from `deno doc --json mod.ts`. */
async function callsWithOptions(): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "mod.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  interface Param {
    name?: string;
    left?: { name?: string };
  }
  interface Declaration {
    kind: string;
    def: {
      params?: Param[];
      constructors?: { params: Param[] }[];
      methods?: { name: string; accessibility?: string; functionDef: { params: Param[] } }[];
    };
  }
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: { name: string; declarations: Declaration[] }[] }>;
  };
  const takesOptions = (params: Param[]) =>
    params.some((param) => OPTION_PARAMETERS.has(param.name ?? param.left?.name ?? ""));
  const calls = new Set<string>();
  for (const module of Object.values(doc.nodes)) {
    for (const symbol of module.symbols) {
      if (symbol.name.endsWith("Error")) continue;
      for (const { kind, def } of symbol.declarations) {
        if (kind === "function" && takesOptions(def.params ?? [])) calls.add(symbol.name);
        if (kind !== "class") continue;
        for (const constructor of def.constructors ?? []) {
          if (takesOptions(constructor.params)) calls.add(`new ${symbol.name}`);
        }
        for (const method of def.methods ?? []) {
          if (method.accessibility === "private" || method.accessibility === "protected") continue;
          if (takesOptions(method.functionDef.params)) calls.add(`${symbol.name}.${method.name}`);
        }
      }
    }
  }
  return [...calls].filter((call) => !NOT_OPTIONS.has(call)).sort();
}

// Every client sends through this fetch, which counts: a checked call sends nothing.
let requests = 0;
const fetch: typeof globalThis.fetch = () => {
  requests++;
  return Promise.reject(new Error("a request was sent"));
};
// Nothing listens on port 9: a call that reached a chain or server there would fail otherwise.
const url = "http://127.0.0.1:9";
const node = new tidepool.OceanNode(url, { fetch, retry: false });
const subgraph = new tidepool.Subgraph(`${url}/subgraphs/name/a/b`, { fetch, retry: false });
const archive = new tidepool.Archive(url, { fetch, retry: false, account: "a", db: "b" });
const expressions = new tidepool.ExpressionSearch(url, { fetch, retry: false });
const oai = new tidepool.OaiPmh(`${url}/oai`, { fetch, retry: false });
const sync = new tidepool.ResourceSync(url, { fetch, retry: false });
const signer = tidepool.signerFromPrivateKey(`0x${"11".repeat(32)}`);
const job = { jobId: "j", owner: signer.address } as never;
const table = tidepool.buildTable(
  tidepool.defineSchema([{ name: "datatoken", type: "string" }]),
  [],
);
const pages = (async function* () {})();

/** One call of each, with the misspelt option `bogus` given as `o`. */
const CALLS: Record<string, (o: never) => unknown> = {
  "new Subgraph": (o) => new tidepool.Subgraph(`${url}/subgraphs/name/a/b`, o),
  "Subgraph.paginate": (o) => subgraph.paginate(o),
  "Subgraph.orders": (o) => subgraph.orders(o),
  "Subgraph.orderPages": (o) => subgraph.orderPages(o).next(),
  "Subgraph.tokens": (o) => subgraph.tokens({}, o),
  "Subgraph.token": (o) => subgraph.token("0xab", o),
  "Subgraph.nftUpdates": (o) => subgraph.nftUpdates(o),
  "Subgraph.globalStatistics": (o) => subgraph.globalStatistics(o),
  chainOrders: (o) => tidepool.chainOrders(o),
  downloadAsset: (o) =>
    tidepool.downloadAsset(
      node,
      { did: "did:op:1", serviceId: "s", signer, ...(o as object) } as never,
    ),
  orderAsset: (o) =>
    tidepool.orderAsset(
      node,
      { did: "did:op:1", serviceId: "s", signer, ...(o as object) } as never,
    ),
  quoteOrder: (o) =>
    tidepool.quoteOrder(
      node,
      { did: "did:op:1", serviceId: "s", signer, ...(o as object) } as never,
    ),
  orderDatatoken: (o) => tidepool.orderDatatoken(o),
  prepareOrder: (o) => tidepool.prepareOrder(o),
  ordersWithAssets: (o) => tidepool.ordersWithAssets(table, table, o),
  signRequest: (o) => tidepool.signRequest(signer, "encrypt" as never, o),
  "new OceanNode": (o) => new tidepool.OceanNode(url, o),
  "OceanNode.searchAssets": (o) => node.searchAssets(o),
  "OceanNode.assetsTable": (o) => node.assetsTable([], o),
  "OceanNode.waitForIndexed": (o) => node.waitForIndexed("did:op:1", o),
  "OceanNode.startFreeCompute": (o) => node.startFreeCompute(o),
  "OceanNode.initializeCompute": (o) => node.initializeCompute(o),
  "OceanNode.startCompute": (o) => node.startCompute(o),
  "OceanNode.quoteCompute": (o) => node.quoteCompute(o),
  "OceanNode.jobs": (o) => node.jobs(signer, o),
  "OceanNode.jobResults": (o) => node.jobResults(signer, o),
  "OceanNode.waitForJob": (o) => node.waitForJob(signer, "j", o),
  "OceanNode.downloadResults": (o) => node.downloadResults(job, o),
  "OceanNode.job": (o) => node.job(signer, "j", o),
  "OceanNode.stopCompute": (o) => node.stopCompute("j", o),
  "OceanNode.computeLogs": (o) => node.computeLogs("j", o).next(),
  "OceanNode.resultText": (o) => node.resultText(job, 0, o),
  "OceanNode.initialize": (o) => node.initialize(o),
  "OceanNode.download": (o) => node.download(o),
  "OceanNode.encrypt": (o) => node.encrypt("text" as never, o),
  "OceanNode.validateDdo": (o) => node.validateDdo({}, o),
  "OceanNode.createAuthToken": (o) => node.createAuthToken(o),
  "OceanNode.decrypt": (o) => node.decrypt(o),
  "new ExpressionSearch": (o) => new tidepool.ExpressionSearch(url, o),
  "ExpressionSearch.search": (o) => expressions.search(o),
  "ExpressionSearch.searchAll": (o) => expressions.searchAll({}, o),
  "ExpressionSearch.searchPages": (o) => expressions.searchPages({}, o).next(),
  "ExpressionSearch.byBook": (o) => expressions.byBook("pid", o),
  kwic: (o) => tidepool.kwic(table, "x", o),
  "new Archive": (o) => new tidepool.Archive(url, o),
  "Archive.databases": (o) => archive.databases(o),
  "Archive.search": (o) => archive.search(o),
  "Archive.searchAll": (o) => archive.searchAll(o),
  "Archive.searchPages": (o) => archive.searchPages(o).next(),
  "Archive.resources": (o) => archive.resources(o),
  "Archive.linkedDataTable": (o) => archive.linkedDataTable("r1", "jsonld", o),
  "Archive.linkedDataAt": (o) => archive.linkedDataAt("r1", o),
  "Archive.rebuildGraph": (o) => archive.rebuildGraph(o),
  "Archive.sparql": (o) => archive.sparql("ASK {}", o),
  "Archive.sparqlAll": (o) => archive.sparqlAll("SELECT * {}", o),
  "Archive.sparqlPages": (o) => archive.sparqlPages("SELECT * {}", o).next(),
  "Archive.iiifImage": (o) => archive.iiifImage("a1", o),
  "Archive.iiifImageUrl": (o) => archive.iiifImageUrl("a1", o),
  "Archive.identify": (o) => archive.identify(o),
  "Archive.listMetadataFormats": (o) => archive.listMetadataFormats(o),
  "Archive.getRecord": (o) => archive.getRecord("oai:x:1", "oai_dc", o),
  "Archive.harvest": (o) => archive.harvest(o),
  "Archive.harvestRecords": (o) => archive.harvestRecords(o).next(),
  "Archive.resourceList": (o) => archive.resourceList(o),
  "Archive.changeList": (o) => archive.changeList(o),
  "Archive.mirror": (o) => archive.mirror(o),
  "Archive.issueKey": (o) => archive.issueKey("token", o),
  "Archive.upload": (o) => archive.upload(new Uint8Array(1), o),
  "Archive.uploadStatus": (o) => archive.uploadStatus("a1", o),
  "Archive.waitForUpload": (o) => archive.waitForUpload("a1", o),
  readSparqlResults: (o) => tidepool.readSparqlResults("{}", o),
  "new SparqlEndpoint": (o) => new tidepool.SparqlEndpoint(`${url}/sparql`, o),
  "SparqlEndpoint.query": (o) => new tidepool.SparqlEndpoint(`${url}/sparql`).query("ASK {}", o),
  "SparqlEndpoint.all": (o) =>
    new tidepool.SparqlEndpoint(`${url}/sparql`).all("SELECT * WHERE { ?s ?p ?o }", o),
  "SparqlEndpoint.pages": (o) =>
    new tidepool.SparqlEndpoint(`${url}/sparql`).pages("SELECT * WHERE { ?s ?p ?o }", o),
  "new OaiPmh": (o) => new tidepool.OaiPmh(`${url}/oai`, o),
  "OaiPmh.identify": (o) => oai.identify(o),
  "OaiPmh.listMetadataFormats": (o) => oai.listMetadataFormats(o),
  "OaiPmh.listSets": (o) => oai.listSets(o),
  "OaiPmh.getRecord": (o) => oai.getRecord("oai:x:1", "oai_dc", o),
  "OaiPmh.harvest": (o) => oai.harvest(o),
  "OaiPmh.harvestRecords": (o) => oai.harvestRecords(o).next(),
  "new ResourceSync": (o) => new tidepool.ResourceSync(url, o),
  "ResourceSync.resourceList": (o) => sync.resourceList(o),
  "ResourceSync.changeList": (o) => sync.changeList(o),
  "ResourceSync.mirror": (o) => sync.mirror(o),
  "ResourceSync.changeEntries": (o) => sync.changeEntries(`${url}/changelist.xml`, undefined, o),
  saveTable: (o) => tidepool.saveTable("never-written.csv", table, o),
  readTable: (o) => tidepool.readTable("never-read.csv", o),
  "DatasetWriter.open": (o) => tidepool.DatasetWriter.open("never-written", o),
  writeDataset: (o) => tidepool.writeDataset(pages, "never-written", o),
  harvestDataset: (o) => tidepool.harvestDataset(oai, "never-written", o),
  harvestSources: (o) => tidepool.harvestSources(o),
  query: (o) => tidepool.query("SELECT 1", o),
  saveBundle: (o) => tidepool.saveBundle("never-written", o),
  reproduceBundle: (o) => tidepool.reproduceBundle("never-read", "never-run.ts", o),
  verifyBundle: (o) => tidepool.verifyBundle("never-read", o),
};

Deno.test("every public call with options is in this test's list", async () => {
  const calls = await callsWithOptions();
  assert.ok(calls.length > 60, `only ${calls.length} calls found: is deno doc's shape the same?`);
  assert.deepEqual(calls.filter((call) => !(call in CALLS)), [], "calls with no case below");
  assert.deepEqual(
    Object.keys(CALLS).filter((call) => !calls.includes(call)),
    [],
    "cases of calls mod.ts does not export",
  );
});

for (const [call, run] of Object.entries(CALLS)) {
  Deno.test(`${call} refuses an unknown option before any request`, async () => {
    requests = 0;
    const error = await (async () => {
      try {
        await run({ bogus: 1 } as never);
      } catch (error) {
        return error;
      }
    })();
    assert.ok(error instanceof TidepoolError, `${call}: ${error ?? "nothing was refused"}`);
    assert.match(error.message, /^Unknown option bogus of /);
    assert.equal(requests, 0, `${call} sent a request`);
  });
}

Deno.test("a required option left out is named, with what the call takes", async () => {
  await assert.rejects(
    node.encrypt("text" as never, {} as never),
    (error: Error) => {
      assert.match(error.message, /^Missing option signer of OceanNode\.encrypt/);
      return true;
    },
  );
  await assert.rejects(
    node.download({ did: "did:op:1", serviceId: "s" } as never),
    /Missing options txId, signer, dir of OceanNode\.download/,
  );
  await assert.rejects(sync.mirror({} as never), /Missing option state of mirror/);
  assert.equal(requests, 0);
});

Deno.test("a value of the wrong kind is refused naming the option and the call", async () => {
  await assert.rejects(
    subgraph.tokens({}, { block: "latest" } as never),
    /Invalid option block of Subgraph\.tokens: expected a whole number, got "latest"/,
  );
  await assert.rejects(
    archive.sparql("ASK {}", { method: "PUT" } as never),
    /Invalid option method of Archive\.sparql: expected one of "auto", "GET", "POST", got "PUT"/,
  );
  await assert.rejects(
    expressions.searchAll({}, { pageSize: 2.5 }),
    /Invalid option pageSize of ExpressionSearch\.searchAll: expected a whole number, got 2.5/,
  );
  await assert.rejects(
    expressions.searchAll({ emotions: "喜" } as never),
    /Unknown option emotions of the ExpressionSearch\.searchAll filters; did you mean "emotion"\?/,
  );
  await assert.rejects(
    archive.upload(new Uint8Array(1), { derivative: "tiles" } as never),
    /derivative of Archive\.upload: expected "ptif" or null/,
  );
  await assert.rejects(tidepool.query(""), /the SQL is empty/);
  assert.equal(requests, 0);
});
