/**
 * Every line that reaches a terminal is inert, one step to the side of the
 * CLI: a warning the library prints itself (the client's default `warn`,
 * `console.warn`) when a program uses tidepool without a `warn` option. A
 * hostile OAI-PMH repository (a loopback listener) answers Identify with a
 * protocolVersion holding what XML 1.0 allows and a terminal acts on: a C1
 * control sequence introducer (U+009B: a CSI to an 8-bit terminal), a
 * bidirectional override, a line end forging a warning line of its own. The
 * warning names the value; the bytes the child wrote to stderr must hold
 * each as a visible escape.
 */

import assert from "node:assert/strict";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const OAI = new URL("../../lib/archive/oai/mod.ts", import.meta.url).href;

const HOSTILE: [string, string, RegExp][] = [
  ["a C1 control sequence introducer", "2.0\u009b2J", /\u009b/],
  ["a bidirectional override", "2.0\u202e0.1", /\u202e/],
  ["a line end forging a warning", "2.0\ntidepool: all records verified", /\ntidepool: all/],
];

function identify(version: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
  <responseDate>2026-01-01T00:00:00Z</responseDate>
  <request verb="Identify">http://127.0.0.1/oai</request>
  <Identify>
    <repositoryName>Hostile</repositoryName>
    <baseURL>http://127.0.0.1/oai</baseURL>
    <protocolVersion>${version}</protocolVersion>
    <adminEmail>a@example.org</adminEmail>
    <earliestDatestamp>2020-01-01</earliestDatestamp>
    <deletedRecord>no</deletedRecord>
    <granularity>YYYY-MM-DD</granularity>
  </Identify>
</OAI-PMH>`;
}

for (const [what, version, raw] of HOSTILE) {
  Deno.test(`a library warning shows ${what} from a repository inert`, async () => {
    const server = serveLocal(
      () => new Response(identify(version), { headers: { "content-type": "text/xml" } }),
      { maxRequests: 5 },
    );
    try {
      const script = `
        import { OaiPmh } from ${JSON.stringify(OAI)};
        await new OaiPmh(${JSON.stringify(`${server.url}/oai`)}, { progress: false, retry: false })
          .identify();`;
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["eval", "--frozen", script],
        stdout: "null",
        stderr: "piped",
      }).output();
      const written = new TextDecoder().decode(stderr);
      assert.equal(code, 0, written);
      assert.match(written, /protocolVersion/, "the warning was written");
      assert.doesNotMatch(written, raw, JSON.stringify(written));
      assert.equal(written.trimEnd().split("\n").length, 1, "one warning line");
    } finally {
      await server.close();
    }
  });
}
