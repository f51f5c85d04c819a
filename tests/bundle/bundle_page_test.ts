/**
 * The bundle's index.html as a reviewer sees it: opened from disk in
 * headless Chromium with the network cut off, it renders (the screenshot is
 * not blank, Japanese text included), and its DOM holds every table's name,
 * row count, typed column headers and first rows, every chart as a titled
 * figure, every file with its SHA-256, and the commands to check it.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { renderPlot } from "../../lib/plot/render_plot.ts";
import { chromiumAvailable, inkShare, openOffline } from "../_chromium.ts";

/** The part of linkedom's DOM the test reads (Deno's types have no DOM). */
interface PageNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): Iterable<PageNode> & { length: number };
}

Deno.test("index.html opens offline in Chromium and shows every table, chart and file", async () => {
  assert.ok(chromiumAvailable(), "chromium is not installed: .ci/run installs it");
  const dir = await Deno.makeTempDir();
  try {
    const counts = aq.table({ emotion: ["喜", "怒", "哀"], n: [3, 1, 2] });
    const books = aq.table({
      pid: Array.from({ length: 25 }, (_, i) => `b${i}`),
      title: Array.from({ length: 25 }, (_, i) => `坊っちゃん <${i}> & "co"`),
      published: Array.from({ length: 25 }, (_, i) => new Date(Date.UTC(1906 + i, 0, 1))),
    });
    const chart = renderPlot({
      marks: [Plot.barY(counts.objects(), { x: "emotion", y: "n" })],
    });
    const saved = await saveBundle(`${dir}/bundle`, {
      tables: { counts, books },
      plots: {
        emotions: chart,
        raw:
          '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>',
      },
      title: "漱石の感情表現",
      authors: [{ name: "Ada Lovelace", orcid: "0000-0002-1825-0097" }],
      license: "https://creativecommons.org/licenses/by/4.0/",
    });
    const page = `${dir}/bundle/index.html`;
    const html = await Deno.readTextFile(page);
    assert.doesNotMatch(html, /<script|<link|<img|@import|url\(/i, "nothing loaded from anywhere");

    const { dom, png } = await openOffline(page);
    assert.ok(inkShare(png) > 0.01, `the screenshot is blank (${inkShare(png)})`);
    const { document } = parseHTML(dom) as unknown as { document: PageNode };
    assert.equal(document.querySelector("h1")?.textContent, "漱石の感情表現");
    assert.equal(document.querySelector("title")?.textContent, "漱石の感情表現");

    const sections = [...document.querySelectorAll("section.table")];
    assert.deepEqual(
      sections.map((s) => [s.getAttribute("data-table"), s.getAttribute("data-rows")]),
      [["counts", "3"], ["books", "25"]],
    );
    const booksTable = sections[1].querySelector("table")!;
    assert.equal(
      booksTable.querySelector("caption")?.textContent,
      "books: the first 10 of 25 rows",
    );
    assert.deepEqual(
      [...booksTable.querySelectorAll("thead th[scope=col]")].map((th) => th.textContent),
      ["pidstring", "titlestring", "publisheddate"],
    );
    assert.equal(booksTable.querySelectorAll("tbody tr").length, 10);
    assert.equal(
      booksTable.querySelector("tbody td:nth-child(2)")?.textContent,
      '坊っちゃん <0> & "co"',
    );
    assert.equal(
      booksTable.querySelector("tbody td:nth-child(3)")?.textContent,
      "1906-01-01T00:00:00.000Z",
    );
    assert.match(sections[0].textContent!, /Table digest/);

    const figures = [...document.querySelectorAll("figure.chart")];
    assert.deepEqual(figures.map((f) => f.getAttribute("data-chart")), ["emotions", "raw"]);
    for (const figure of figures) {
      const svg = figure.querySelector("svg")!;
      assert.ok(svg, "the chart is inline");
      assert.equal(svg.getAttribute("role"), "img");
      assert.equal(svg.querySelector("title")?.textContent, figure.getAttribute("data-chart"));
    }

    const listed = document.querySelector("#files")!.textContent!;
    for (
      const file of saved.files.filter((f) =>
        // Written after the page: the page can name them, not hold their hashes.
        !["index.html", "ro-crate-metadata.json", "SHA256SUMS"].includes(f.path)
      )
    ) {
      assert.ok(listed.includes(file.path) && listed.includes(file.sha256), file.path);
    }
    assert.match(document.querySelector("#check")!.textContent!, /tidepool@[\d.]+\/verify/);
    assert.match(document.querySelector("#check")!.textContent!, /sha256sum -c SHA256SUMS/);
    assert.match(listed, /SHA256SUMS/);
    assert.match(
      document.querySelector("header")!.textContent!,
      /By Ada Lovelace\. License: CC-BY-4\.0/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
