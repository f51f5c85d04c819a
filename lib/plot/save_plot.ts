/**
 * Writes a chart to an SVG or PNG file.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { PlotFigure } from "./plot_figure.ts";
import { isPlotElement, type PlotElement, plotFigure } from "./plot_element.ts";
import { renderPng } from "./_render_png.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";

/** Options of {@linkcode savePlot}. */
export interface SavePlotOptions {
  /** PNG only: pixels per SVG unit; default 2 (sharp on high-density screens). */
  scale?: number;
  /** PNG only: font files to use besides the system's (a font with Japanese glyphs, say). */
  fontFiles?: string[];
}

/**
 * Saves a figure by the file's extension: `.svg` as UTF-8 SVG, `.png` as
 * a PNG rendered with resvg (loaded on first use) from the system's fonts;
 * Japanese labels need a font with Japanese glyphs installed (on Debian,
 * `fonts-noto-cjk` or `fonts-ipafont-gothic`) or given in `fontFiles`. The
 * file is written under a temporary name and renamed, so a file under the
 * final name is always complete.
 *
 * @param path The file to write, e.g. `out/emotions.svg` or `out/emotions.png`.
 * @param figure A {@linkcode PlotFigure}, SVG markup, or what `Plot.plot` returned
 *   (with the `document` of `tidepool/plot`, or in the kernel).
 * @param options PNG scale and extra font files.
 * @returns The path written.
 *
 * @example Saving a chart
 * ```ts
 * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
 * import { ExpressionSearch } from "../expressions/expression_search.ts";
 * import { emotionDistributionChart } from "./emotion_distribution_chart.ts";
 * await using sandbox = startExpressionSandbox({ size: 200 });
 * const stats = await new ExpressionSearch(sandbox.url, { progress: false }).stats();
 * const out = await Deno.makeTempDir();
 * await savePlot(`${out}/emotions.svg`, emotionDistributionChart(stats.emotions));
 * await savePlot(`${out}/emotions.png`, emotionDistributionChart(stats.emotions));
 * console.log((await Deno.stat(`${out}/emotions.png`)).size > 0);
 * ```
 */
export async function savePlot(
  path: string,
  figure: PlotFigure | PlotElement | string,
  options: SavePlotOptions = {},
): Promise<string> {
  const svg = figure instanceof PlotFigure
    ? figure.svg
    : isPlotElement(figure)
    ? plotFigure(figure).svg
    : figure;
  if (!/^\s*(<\?xml[^>]*>\s*)?<svg\b/.test(svg)) {
    throw new TypeError("Cannot save the plot: the figure is not SVG markup");
  }
  const markup = svg.replace(/^\s*<\?xml[^>]*>\s*/, "");
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  let bytes: Uint8Array;
  if (extension === "png") {
    bytes = (await renderPng(markup, options)).png;
  } else if (extension === "svg") {
    bytes = new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n${markup}\n`);
  } else {
    throw new TidepoolError(`Cannot save a plot as .${extension}: ${path}`, {
      hint: "Use a .svg or .png file name",
    });
  }
  await writeFileAtomic(path, bytes);
  return path;
}
