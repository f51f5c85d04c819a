/**
 * Observable Plot as its documentation writes it. In a script, Plot.plot
 * with the document tidepool exports gives an element savePlot saves; in
 * the Deno Jupyter kernel, after importing tidepool, Plot.plot with no
 * document works and a cell that ends with it shows the chart as SVG.
 */

import assert from "node:assert/strict";
import * as Plot from "@observablehq/plot";
import { document, plotFigure, savePlot } from "../../lib/plot/mod.ts";
import { codeCell, executeNotebook, jupyterAvailable } from "../_child_runs.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test("Plot.plot({ ..., document }) in a script, saved by savePlot", async () => {
  const data = [{ emotion: "喜", n: 3 }, { emotion: "怒", n: 1 }];
  const chart = Plot.plot(
    { marks: [Plot.barY(data, { x: "emotion", y: "n" })], document } as never,
  );
  const dir = await Deno.makeTempDir();
  try {
    await savePlot(`${dir}/bars.svg`, chart);
    const svg = await Deno.readTextFile(`${dir}/bars.svg`);
    assert.match(svg, /^(<\?xml[^>]*>\s*)?<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /喜/);
    // A titled chart is a figure: it becomes one SVG with the title drawn in.
    const titled = Plot.plot({
      title: "感情",
      marks: [Plot.barY(data, { x: "emotion", y: "n" })],
      document,
    });
    assert.equal(titled.tagName.toLowerCase(), "figure");
    assert.match(plotFigure(titled).svg, /^<svg[\s\S]*感情/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
}
interface Notebook {
  cells: { outputs?: Output[] }[];
}

Deno.test({
  name: "in the Deno kernel, Plot.plot({ marks }) works after importing tidepool and shows SVG",
  ignore: !jupyterAvailable() && Deno.env.get("CI") !== "true",
  async fn() {
    const outDir = await Deno.makeTempDir();
    // In notebooks/, where tidepool's deno.json (and @tidepool/tidepool) is found.
    const path = `${root}notebooks/_plot-${crypto.randomUUID()}.ipynb`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        cells: [
          codeCell('import * as Plot from "@observablehq/plot";\nimport "@tidepool/tidepool";'),
          codeCell(
            'Plot.plot({ marks: [Plot.barY([{ x: "喜", y: 3 }, { x: "怒", y: 1 }], { x: "x", y: "y" })] })',
          ),
        ],
        metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    try {
      let svg: string | undefined;
      // The kernel can report a cell idle before its result (see the notebook tests): try again.
      for (let attempt = 1; attempt <= 3 && svg === undefined; attempt++) {
        const executed = await executeNotebook<Notebook>(path, {
          outDir,
          environment: { ...Deno.env.toObject() },
          timeoutSeconds: 120,
        });
        const data = executed.cells[1].outputs?.find((o) => o.data?.["image/svg+xml"])?.data;
        const markup = data?.["image/svg+xml"];
        svg = Array.isArray(markup) ? markup.join("") : markup;
      }
      assert.ok(svg, "the cell showed no SVG");
      assert.match(svg, /^<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg, /喜/);
    } finally {
      await Deno.remove(path);
      await Deno.remove(outDir, { recursive: true });
    }
  },
});
