/**
 * Observable Plot's colour legend, as its documentation writes it
 * (`color: { legend: true }`): the continuous ramp draws on a canvas, which
 * linkedom lacks. It must work in a script, in saved SVG and PNG files, and
 * in the Deno kernel. The ramp embedded in the SVG is decoded here on its
 * own (zlib by the platform's DecompressionStream), and the PNG's pixels are
 * read from the renderer, not from tidepool's report.
 */

import assert from "node:assert/strict";
import * as Plot from "@observablehq/plot";
import { document, renderPlot, savePlot } from "../../lib/plot/mod.ts";
import { renderPng } from "../../lib/plot/_render_png.ts";
import { codeCell, executeNotebook, jupyterAvailable } from "../_child_runs.ts";

const root = new URL("../../", import.meta.url).pathname;
const data = Array.from({ length: 20 }, (_, i) => ({ x: i, y: i % 7, valence: i / 19 }));
const marks = [Plot.dot(data, { x: "x", y: "y", fill: "valence" })];

/** The RGBA pixels of an embedded PNG data URL (8-bit RGBA, any filter 0 rows). */
async function rampPixels(svg: string): Promise<{ width: number; colours: Set<string> }> {
  const href = /<image[^>]*href="data:image\/png;base64,([^"]+)"/.exec(svg)?.[1];
  assert.ok(href, "the SVG embeds the ramp as a PNG");
  const png = Uint8Array.from(atob(href), (c) => c.charCodeAt(0));
  assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]);
  const view = new DataView(png.buffer);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  let at = 8;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.slice(at + 4, at + 8));
    if (type === "IDAT") idat.push(png.slice(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const inflated = new Uint8Array(
    await new Response(
      new Blob(idat as BlobPart[]).stream().pipeThrough(
        new DecompressionStream("deflate"),
      ),
    ).arrayBuffer(),
  );
  const colours = new Set<string>();
  for (let row = 0; row < height; row++) {
    const start = row * (1 + width * 4);
    assert.equal(inflated[start], 0, "unfiltered row");
    for (let i = 0; i < width; i++) {
      colours.add([...inflated.slice(start + 1 + i * 4, start + 5 + i * 4)].join(","));
    }
  }
  return { width, colours };
}

/** Pixels far from grey: the ramp's colours, not text, axes or white. */
function colourful(pixels: Uint8Array, width: number, rows: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(pixels.length, width * rows * 4); i += 4) {
    const [r, g, b] = pixels.slice(i, i + 3);
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
  }
  return count;
}

Deno.test("a continuous colour legend in a script: Plot.plot with tidepool's document", async () => {
  const chart = Plot.plot({ color: { legend: true, label: "valence" }, marks, document } as never);
  const dir = await Deno.makeTempDir();
  try {
    await savePlot(`${dir}/legend.svg`, chart);
    const svg = await Deno.readTextFile(`${dir}/legend.svg`);
    assert.match(svg, /valence/);
    const { width, colours } = await rampPixels(svg);
    assert.equal(width, 256);
    assert.ok(colours.size > 100, `${colours.size} colours in the ramp`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("renderPlot keeps the legend, and the saved PNG draws its colours", async () => {
  const figure = renderPlot({ color: { legend: true, scheme: "viridis" }, marks });
  assert.ok((await rampPixels(figure.svg)).colours.size > 100);
  // The legend alone: only it can bring colour to the image.
  const legend = renderPlot({
    color: { legend: true, type: "linear", domain: [0, 1], scheme: "turbo" },
    marks: [],
  });
  const image = await renderPng(legend.svg);
  assert.ok(colourful(image.pixels, image.width, image.height) > 500);
  // With the chart: the legend's band (50 units high, at scale 2) is drawn in colour.
  const chart = await renderPng(figure.svg);
  assert.ok(colourful(chart.pixels, chart.width, 100) > 500);
  const dir = await Deno.makeTempDir();
  try {
    await savePlot(`${dir}/chart.png`, figure);
    const png = await Deno.readFile(`${dir}/chart.png`);
    assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("swatch and ordinal legends still render", () => {
  const figure = renderPlot({
    color: { legend: true, type: "ordinal" },
    marks: [Plot.dot([{ x: 1, y: 1, k: "喜" }, { x: 2, y: 2, k: "怒" }], {
      x: "x",
      y: "y",
      fill: "k",
    })],
  });
  assert.match(figure.svg, /喜/);
  assert.match(figure.svg, /怒/);
});

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}
interface Notebook {
  cells: { outputs?: Output[] }[];
}

Deno.test({
  name: "in the Deno kernel, Plot.plot({ color: { legend: true } }) shows the chart with its ramp",
  ignore: !jupyterAvailable() && Deno.env.get("CI") !== "true",
  async fn() {
    const outDir = await Deno.makeTempDir();
    const path = `${root}notebooks/_legend-${crypto.randomUUID()}.ipynb`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        cells: [
          codeCell('import * as Plot from "@observablehq/plot";\nimport "@tidepool/tidepool";'),
          codeCell(
            `Plot.plot({ color: { legend: true }, marks: [Plot.dot(${
              JSON.stringify(data)
            }, { x: "x", y: "y", fill: "valence" })] })`,
          ),
        ],
        metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    try {
      let shown: string | undefined;
      let errors: Output[] = [];
      // The kernel can report a cell idle before its result (see the notebook tests): try again.
      for (let attempt = 1; attempt <= 3 && shown === undefined; attempt++) {
        const executed = await executeNotebook<Notebook>(path, {
          outDir,
          environment: { ...Deno.env.toObject() },
          timeoutSeconds: 120,
        });
        const outputs = executed.cells[1].outputs ?? [];
        errors = outputs.filter((o) => o.output_type === "error");
        const data = outputs.find((o) => o.data?.["image/svg+xml"] || o.data?.["text/html"])
          ?.data;
        const markup = data?.["image/svg+xml"] ?? data?.["text/html"];
        shown = Array.isArray(markup) ? markup.join("") : markup;
      }
      assert.deepEqual(errors.map((e) => `${e.ename}: ${e.evalue}`), []);
      assert.ok(shown, "the cell showed no chart");
      assert.ok((await rampPixels(shown)).colours.size > 100);
    } finally {
      await Deno.remove(path);
      await Deno.remove(outDir, { recursive: true });
    }
  },
});
