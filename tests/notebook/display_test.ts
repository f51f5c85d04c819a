import assert from "node:assert/strict";
import * as aq from "arquero";
import { parseHTML } from "linkedom";
import { HttpError } from "../../lib/errors/errors.ts";
import { registerSecret } from "../../lib/errors/redact.ts";
import {
  errorBundle,
  mediaBundle,
  saveTable,
  TABLE_DIGEST_MIME,
  tableHtml,
  tableText,
  withSvgNamespaces,
} from "../../lib/notebook/mod.ts";
import { buildTable, defineSchema, tableDigest } from "../../lib/table/mod.ts";

const schema = defineSchema([
  { name: "<script>alert(1)</script>", type: "string", path: "evil" },
  { name: "title", type: "string" },
  { name: "pages", type: "array" },
  { name: "created", type: "date" },
]);

const records = Array.from({ length: 25 }, (_, i) => ({
  evil: `<b>${i}</b>`,
  title: i === 0 ? "吾輩は猫である".repeat(20) : `坊っちゃん ${i}`,
  pages: Array.from({ length: i % 9 }, (_, p) => p + 1),
  created: i === 3 ? null : `2026-01-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z`,
}));

Deno.test("the HTML view escapes names and values, shows types, count and the first rows", () => {
  const html = tableHtml(buildTable(schema, records), { rows: 5 });
  assert.ok(!html.includes("<script>"), "column name escaped");
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(html.includes("&lt;b&gt;0&lt;/b&gt;"), "values escaped");
  assert.equal((html.match(/<tr>/g) ?? []).length, 1 + 5, "header + 5 rows");
  assert.match(html, /25 rows × 4 columns \(first 5 shown\)/);
  assert.match(html, /<small[^>]*>date<\/small>/);
  assert.match(html, /吾輩は猫である/, "Japanese intact");
  assert.match(html, /…/, "long text shortened");
  assert.match(html, /\[1, 2, 3, 4, 5, … \+3\]|\[1, 2, 3\]/);
});

Deno.test("the HTML view aligns numbers right, text left, and never wraps a cell", () => {
  const html = tableHtml(aq.table({ title: ["坊っちゃん"], year: [1906] }));
  assert.match(html, /<td style="text-align:left;white-space:nowrap">坊っちゃん<\/td>/);
  assert.match(html, /<td style="text-align:right;white-space:nowrap">1906<\/td>/);
  assert.match(html, /^<div class="tidepool-table" style="overflow-x:auto">/);
});

Deno.test("the text view aligns wide characters and marks nulls", () => {
  const text = tableText(buildTable(schema, records.slice(2, 5)));
  const lines = text.split("\n");
  assert.equal(lines.length, 2 + 3 + 1);
  assert.match(lines[1], /<string>\s+<string>\s+<array>\s+<date>/);
  assert.match(lines[3], /null$/, "the missing date shows as null");
  assert.equal(lines.at(-1), "3 rows × 4 columns");
});

Deno.test("an empty table still shows its columns and types", () => {
  const bundle = mediaBundle(buildTable(schema, []))!;
  assert.match(bundle["text/html"], /0 rows × 4 columns/);
  assert.match(bundle["text/plain"], /<array>/);
});

Deno.test("a displayed table carries its digest, for comparing re-runs", () => {
  const table = buildTable(schema, records.slice(0, 3));
  const digest = JSON.parse(mediaBundle(table)![TABLE_DIGEST_MIME]);
  assert.deepEqual(digest, tableDigest(table));
  assert.equal(digest.rows, 3);
});

interface MiniElement {
  outerHTML: string;
  tagName: string;
  setAttribute(name: string, value: string): void;
  appendChild(child: MiniElement): void;
}

Deno.test("SVG figures get their namespaces and the SVG MIME type", () => {
  // linkedom's types describe a window without `document`; it has one.
  const { document } = parseHTML("<html><body></body></html>") as unknown as {
    document: {
      createElementNS(ns: string, tag: string): MiniElement;
      createElement(tag: string): MiniElement;
    };
  };
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", "10");
  const bundle = mediaBundle(svg)!;
  assert.match(
    bundle["image/svg+xml"],
    /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" xmlns:xlink=/,
  );
  const figure = document.createElement("figure");
  figure.appendChild(svg);
  assert.match(mediaBundle(figure)!["text/html"], /<figure><svg xmlns=/);
  assert.equal(
    withSvgNamespaces('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="x">'),
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="x">',
  );
});

Deno.test("an error renders as a short message with no secret", () => {
  registerSecret("nb-secret-0123456789");
  const error = new HttpError("Request failed: key nb-secret-0123456789 refused", {
    status: 401,
    method: "GET",
    url: "https://a.example/x?signature=0xabc",
    body: "bad key nb-secret-0123456789",
    hint: "Check the key",
  });
  const bundle = errorBundle(error);
  assert.equal(
    bundle["text/plain"],
    "HttpError: Request failed: key [redacted] refused\nServer said: bad key [redacted]\nWhat to do: Check the key",
  );
  assert.ok(!bundle["text/html"].includes("nb-secret"));
  assert.ok(!bundle["text/plain"].includes(" at "), "no stack frames");
});

Deno.test("saveTable writes CSV and Arrow that read back to the same values", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = buildTable(schema, records.slice(0, 4));
    await saveTable(`${dir}/t.csv`, table);
    const csv = await Deno.readTextFile(`${dir}/t.csv`);
    assert.match(csv, /^<script>alert\(1\)<\/script>,title,pages,created\n/);
    assert.match(csv, /坊っちゃん 1,\[1\],2026-01-02/);
    const back = aq.fromCSV(csv, { autoType: false });
    assert.equal(back.numRows(), 4);
    await saveTable(`${dir}/t.arrow`, table);
    const arrow = aq.fromArrow(await Deno.readFile(`${dir}/t.arrow`));
    assert.deepEqual(arrow.array("title"), table.array("title"));
    assert.deepEqual(
      (arrow.array("created") as Date[]).map((d) => d && +new Date(d)),
      (table.array("created") as Date[]).map((d) => d && +d),
    );
    await assert.rejects(saveTable(`${dir}/t.xlsx`, table), /Cannot save a table as \.xlsx/);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["t.arrow", "t.csv"], "no partial files left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a filtered or ordered table shows its own rows, in its order, in text and HTML", () => {
  const table = aq.table({ name: ["a", "b", "c", "d"], n: [1, 2, 3, 4] });
  const kept = table.filter((d: { n: number }) => d.n > 2);
  const rowsOf = (text: string, count: number) =>
    text.split("\n").slice(2, 2 + count).map((line) => line.split(/\s+/).join(" "));
  assert.deepEqual(rowsOf(tableText(kept), 2), ["c 3", "d 4"]);
  const cells = (html: string) => [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells(tableHtml(kept)), ["c", "3", "d", "4"]);
  const ordered = table.orderby(aq.desc("n"));
  assert.deepEqual(rowsOf(tableText(ordered), 4), ["d 4", "c 3", "b 2", "a 1"]);
  assert.deepEqual(cells(tableHtml(ordered, { rows: 2 })).slice(0, 4), ["d", "4", "c", "3"]);
});
