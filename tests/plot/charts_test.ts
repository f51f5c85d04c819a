import assert from "node:assert/strict";
import * as aq from "arquero";
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import {
  emotionBodyPartHeatmap,
  emotionDistributionChart,
  expressionsPerYearChart,
  keywordInContextChart,
  type PlotFigure,
  renderPlot,
  savePlot,
  valenceByBookChart,
} from "../../lib/plot/mod.ts";

interface El {
  getAttribute(name: string): string | null;
  textContent: string | null;
}

function marks(figure: PlotFigure, selector: string): El[] {
  const { document } = parseHTML(`<html><body>${figure.svg}</body></html>`) as unknown as {
    document: { querySelectorAll(selector: string): ArrayLike<El> };
  };
  return Array.from(document.querySelectorAll(selector));
}

function assertStandalone(figure: PlotFigure) {
  assert.match(
    figure.svg,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink"/,
  );
  assert.doesNotMatch(figure.svg, /<figure|<h2|<div/);
}

async function withData(
  body: (data: { client: ExpressionSearch }) => Promise<void>,
): Promise<void> {
  const sandbox = startExpressionSandbox({ size: 2000 });
  try {
    await body({
      client: new ExpressionSearch(sandbox.url, { minIntervalMs: 0, progress: false }),
    });
  } finally {
    await sandbox.close();
  }
}

Deno.test("heatmap: one rect and one count label per emotion x body part cell", async () => {
  await withData(async ({ client }) => {
    const { emotionBodyPart } = await client.analytics();
    const figure = emotionBodyPartHeatmap(emotionBodyPart, { title: "感情と身体部位" });
    assertStandalone(figure);
    const cells = marks(figure, 'g[aria-label="cell"] rect');
    assert.equal(cells.length, emotionBodyPart.numRows());
    const labels = marks(figure, 'g[aria-label="text"] text').map((t) => Number(t.textContent));
    assert.deepEqual(labels, emotionBodyPart.array("count"));
    for (const label of ["感情と身体部位", "目", "頬", "喜", "驚"]) {
      assert.ok(figure.svg.includes(label), label);
    }
  });
});

Deno.test("emotion distribution: ten bars, largest first", async () => {
  await withData(async ({ client }) => {
    const { emotions } = await client.stats();
    const figure = emotionDistributionChart(emotions);
    assertStandalone(figure);
    const bars = marks(figure, 'g[aria-label="bar"] rect')
      .map((r) => ({ x: Number(r.getAttribute("x")), h: Number(r.getAttribute("height")) }))
      .sort((a, b) => a.x - b.x);
    assert.equal(bars.length, 10);
    for (let i = 1; i < bars.length; i++) assert.ok(bars[i - 1].h >= bars[i].h);
    // Raw hits give the same chart as counts.
    const hits = await client.searchAll();
    const fromHits = emotionDistributionChart(hits);
    assert.equal(marks(fromHits, 'g[aria-label="bar"] rect').length, 10);
  });
});

Deno.test("valence per work: stacked to 100% with a swatch legend inside the SVG", async () => {
  await withData(async ({ client }) => {
    const hits = await client.searchAll();
    const figure = valenceByBookChart(hits, { title: "作品ごとの極性" });
    assertStandalone(figure);
    const pairs = new Set(
      (hits.objects() as { title: string; valence: string }[]).map((h) =>
        `${h.title}|${h.valence}`
      ),
    );
    const rects = marks(figure, 'g[aria-label="bar"] rect');
    assert.equal(rects.length, pairs.size);
    const widths = new Map<string, number>();
    for (const rect of rects) {
      const y = rect.getAttribute("y")!;
      widths.set(y, (widths.get(y) ?? 0) + Number(rect.getAttribute("width")));
    }
    const full = [...widths.values()];
    for (const w of full) assert.ok(Math.abs(w - full[0]) < 1.5, `${w} vs ${full[0]}`);
    assert.equal(marks(figure, "g.legend-swatch").length, 4);
    for (const title of ["こころ", "坊っちゃん", "作品ごとの極性"]) {
      assert.ok(figure.svg.includes(title), title);
    }
  });
});

Deno.test("expressions per year: one bar per year with expressions", async () => {
  await withData(async ({ client }) => {
    const books = await client.books();
    const years = new Set(
      (books.objects() as { year: number; expressionCount: number }[])
        .filter((b) => b.expressionCount > 0).map((b) => b.year),
    );
    const figure = expressionsPerYearChart(books);
    assertStandalone(figure);
    assert.equal(marks(figure, 'g[aria-label="rect"] rect').length, years.size);
  });
});

Deno.test("keyword in context: left, match and right per hit, Japanese kept", async () => {
  await withData(async ({ client }) => {
    const { hits } = await client.search({ keyword: "涙", limit: 12 });
    const figure = keywordInContextChart(hits, { keyword: "涙" });
    assertStandalone(figure);
    const groups = marks(figure, 'g[aria-label="text"]');
    assert.equal(groups.length, 3);
    const texts = marks(figure, 'g[aria-label="text"] text');
    assert.equal(texts.length, 3 * hits.numRows());
    const middle = texts.slice(hits.numRows(), 2 * hits.numRows()).map((t) => t.textContent);
    assert.deepEqual(middle, new Array(hits.numRows()).fill("涙"));
    const contexts = hits.array("context") as string[];
    const left = texts.slice(0, hits.numRows()).map((t) => t.textContent ?? "");
    left.forEach((text, i) => assert.ok(contexts[i].includes(text.replace("…", "")), text));
  });
});

Deno.test("savePlot writes a complete SVG file with the Japanese labels", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const figure = emotionDistributionChart(aq.table({ emotion: ["喜", "怒"], count: [2, 5] }));
    const path = await savePlot(`${dir}/emotions.svg`, figure);
    const text = await Deno.readTextFile(path);
    assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns=/);
    assert.ok(text.includes("喜") && text.includes("怒"));
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["emotions.svg"]);
    await assert.rejects(savePlot(`${dir}/x.svg`, "<html></html>"), /not SVG markup/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a continuous colour legend is drawn above the chart, both in one SVG", () => {
  const figure = renderPlot({
    color: { legend: true, scheme: "blues" },
    marks: [Plot.cell([{ a: "x", v: 1 }, { a: "y", v: 3 }], { x: "a", fill: "v" })],
  });
  assertStandalone(figure);
  assert.equal(marks(figure, 'g[aria-label="cell"] rect').length, 2);
  const [ramp] = marks(figure, "svg[class*=ramp]");
  assert.ok(ramp, "the ramp is kept");
  assert.equal(marks(figure, "svg[class*=ramp] image").length, 1);
});

Deno.test("a chart given the wrong table says which columns are missing", () => {
  assert.throws(
    () => emotionBodyPartHeatmap(aq.table({ emotion: ["喜"], count: [1] })),
    (error: Error) => error instanceof TidepoolError && /lacks bodyPart/.test(error.message),
  );
  // No server is involved: the error says what the table has, not what a server said.
  const error = (() => {
    try {
      emotionBodyPartHeatmap(aq.table({ emotion: ["喜"], count: [1] }));
    } catch (e) {
      return e as TidepoolError;
    }
  })();
  assert.doesNotMatch(String(error?.message), /Server said/);
  assert.match(String(error?.message), /The table has: emotion, count/);
});
