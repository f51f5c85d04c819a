/**
 * Writes a chart to an SVG file.
 *
 * @module
 */

import { PlotFigure } from "./plot_figure.ts";

/**
 * Saves a figure as an SVG file (UTF-8), written to a temporary name first
 * and renamed, so a file under the final name is always complete.
 *
 * @param path The file to write, e.g. `out/emotions.svg`.
 * @param figure A {@linkcode PlotFigure} or SVG markup.
 * @returns The path written.
 *
 * @example Saving a chart
 * ```ts ignore
 * await savePlot("out/emotions.svg", emotionDistributionChart(stats.emotions));
 * ```
 */
export async function savePlot(path: string, figure: PlotFigure | string): Promise<string> {
  const svg = figure instanceof PlotFigure ? figure.svg : figure;
  if (!/^\s*(<\?xml[^>]*>\s*)?<svg\b/.test(svg)) {
    throw new TypeError("Cannot save the plot: the figure is not SVG markup");
  }
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.partial`;
  await Deno.writeTextFile(
    temporary,
    `<?xml version="1.0" encoding="UTF-8"?>\n${svg.replace(/^\s*<\?xml[^>]*>\s*/, "")}\n`,
  );
  try {
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
  return path;
}
