/**
 * The one XML entry point (lib/xml/xml.ts) against XML 1.0 itself:
 * well-formedness is enforced, references are decoded, entities other than
 * the predefined five are refused, and the depth cap holds.
 */

import assert from "node:assert/strict";
import {
  MAX_XML_CHARS,
  MAX_XML_DEPTH,
  parseXml,
  readXml,
  textOf,
  type XmlHandlers,
} from "../../lib/xml/xml.ts";

const IGNORE: XmlHandlers = { open() {}, close() {}, text() {} };
import { ProtocolError } from "../../lib/errors/errors.ts";

async function refusal(text: string): Promise<ProtocolError> {
  const error = await parseXml(text, "test document", "http://127.0.0.1/x").then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof ProtocolError, `refused: ${text.slice(0, 60)}`);
  assert.equal(error.code, "invalidXml");
  assert.match(error.message, /^Cannot parse the test document from http:\/\/127\.0\.0\.1\/x: /);
  return error;
}

Deno.test("xml: character references and the predefined entities are decoded", async () => {
  const root = await parseXml(
    `<r a="x&#46;y"><t>a&#46;b&#xD;c &amp; &lt;&gt; &quot;&apos; &#x1F30A;</t></r>`,
    "test",
  );
  const r = root.r as Record<string, unknown>;
  assert.equal(r["@_a"], "x.y");
  assert.equal(textOf(r.t), "a.b\rc & <> \"' \u{1F30A}");
});

Deno.test("xml: text keeps its whitespace when asked, CDATA is text", async () => {
  const root = await parseXml(`<r><t>  a <![CDATA[<b>]]>  </t></r>`, "test", "", {
    trim: false,
  });
  assert.equal(textOf((root.r as Record<string, unknown>).t), "  a <b>  ");
});

Deno.test("xml: every truncation of a document is an error, never a shorter document", async () => {
  const whole = `<?xml version="1.0"?><list><item n="1">one</item><item n="2">two</item></list>`;
  assert.equal(Object.keys(await parseXml(whole, "test")).length, 1);
  for (let end = 1; end < whole.length; end++) {
    await refusal(whole.slice(0, end));
  }
});

Deno.test("xml: documents that are not well-formed are refused with where", async () => {
  const mismatched = await refusal(`<a>\n<b></a>`);
  assert.match(mismatched.message, /not well-formed XML: .*\(line 2, column \d+\)/);
  await refusal(`<a></a><b></b>`); // two roots
  await refusal(`<a x="1" x="2"/>`); // repeated attribute
  await refusal(`<a>&#0;</a>`); // a reference to no XML character
  await refusal(`<a>a & b</a>`); // a bare ampersand
});

Deno.test("xml: an undeclared entity is refused, with or without a DOCTYPE", async () => {
  const plain = await refusal(`<a>caf&eacute;</a>`);
  assert.match(plain.message, /undefined entity/);
  await refusal(`<!DOCTYPE a SYSTEM "http://127.0.0.1/a.dtd"><a>&nbsp;</a>`);
  await refusal(`<a title="&bogus;"/>`);
});

Deno.test("xml: DOCTYPE entity declarations are refused before any expansion", async () => {
  const laughs = `<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]><lolz>&lol1;</lolz>`;
  const error = await refusal(laughs);
  assert.match(error.message, /declares entities in a DOCTYPE/);
  // A DOCTYPE without declarations is harmless and read.
  const root = await parseXml(`<!DOCTYPE a><a>x</a>`, "test");
  assert.equal(root.a, "x");
});

Deno.test("xml: nesting deeper than the cap is refused", async () => {
  const ok = "<e>".repeat(MAX_XML_DEPTH) + "</e>".repeat(MAX_XML_DEPTH);
  await parseXml(ok, "test");
  const deep = "<e>".repeat(MAX_XML_DEPTH + 1) + "</e>".repeat(MAX_XML_DEPTH + 1);
  const error = await refusal(deep);
  assert.match(error.message, /nested deeper than 64 levels/);
});

Deno.test("xml: a byte order mark is not document text", async () => {
  const root = await parseXml(`\uFEFF<?xml version="1.0"?><a>x</a>`, "test");
  assert.equal(root.a, "x");
});

Deno.test("parseXml hands on the elements of `each` as they close and keeps them out of the tree", async () => {
  const xml = `<OAI-PMH><ListRecords>
    <record><header><identifier>a</identifier></header></record>
    <record><header><identifier>b</identifier></header><note><record>inner</record></note></record>
    <resumptionToken>t</resumptionToken>
  </ListRecords></OAI-PMH>`;
  const handed: unknown[] = [];
  const root = await parseXml(xml, "test", "", {
    each: { depth: 3, name: "record", element: (node) => handed.push(node) },
  });
  assert.equal(handed.length, 2, "only the records at depth 3, not the one inside a note");
  assert.deepEqual((handed[1] as Record<string, unknown>).note, { record: "inner" });
  const list = (root["OAI-PMH"] as Record<string, unknown>).ListRecords as Record<string, unknown>;
  assert.equal(list.record, undefined, "the records are not in the tree");
  assert.equal(list.resumptionToken, "t");
});

Deno.test("xml: a body past the size cap is refused, whole or streamed", async () => {
  const refused = (error: unknown) =>
    error instanceof ProtocolError && error.code === "invalidXml" &&
    /more than the limit of/.test(error.message) && error.details?.startsWith("<a>") === true;
  const filler = "x".repeat(1024 * 1024);
  const whole = `<a>${filler.repeat(MAX_XML_CHARS / filler.length)}</a>`;
  await assert.rejects(readXml(whole, "test", "", IGNORE), refused);
  async function* chunks() {
    yield "<a>";
    for (let i = 0; i < MAX_XML_CHARS / filler.length; i++) yield filler;
    yield "</a>";
  }
  await assert.rejects(readXml(chunks(), "test", "", IGNORE), refused);
});
