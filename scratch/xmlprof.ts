import { xmlDocument } from "../bench/_sparql_shapes.ts";
import { Archive } from "../lib/archive/mod.ts";
const doc = xmlDocument("six", 100_000);
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response(doc, { headers: { "content-type": "application/sparql-results+xml" } }));
const base = `http://127.0.0.1:${server.addr.port}`;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const archive = new Archive(base, { account: "bench", db: "six-xml", progress: false });
  const table = await archive.sparql("SELECT * WHERE { ?s ?p ?o }", { service: "dl", method: "GET", format: "xml" } as any);
  console.log("ms", (performance.now() - t).toFixed(0), typeof table === "boolean" ? table : table.numRows());
}
await server.shutdown();
