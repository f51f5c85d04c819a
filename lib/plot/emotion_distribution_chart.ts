/**
 * Bars of expressions per emotion category, largest first.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import * as Plot from "@observablehq/plot";
import { countBy } from "./_counts.ts";
import type { PlotFigure } from "./plot_figure.ts";
import { renderPlot } from "./render_plot.ts";

/** Options of {@linkcode emotionDistributionChart}. */
export interface EmotionDistributionOptions {
  /** Chart title; default none. */
  title?: string;
  /** Width in pixels; default 640. */
  width?: number;
}

/**
 * Emotion distribution as sorted bars with their counts.
 *
 * @param table `emotion, count` (`stats().emotions`, `analytics().emotion`) or hits (one row each).
 * @param options Title and width.
 * @returns The figure: one bar per category.
 *
 * @example From counts
 * ```ts
 * import * as aq from "arquero";
 * const figure = emotionDistributionChart(aq.table({ emotion: ["喜", "怒"], count: [5, 9] }));
 * console.log(figure.svg.includes("怒")); // true
 * ```
 */
export function emotionDistributionChart(
  table: ColumnTable,
  options: EmotionDistributionOptions = {},
): PlotFigure {
  const rows = countBy(table, ["emotion"], "emotion distribution");
  return renderPlot({
    title: options.title,
    width: options.width ?? 640,
    marginTop: 24,
    x: { label: "感情 (emotion)" },
    y: { label: "件数 (expressions)", grid: true },
    marks: [
      Plot.barY(rows, { x: "emotion", y: "count", fill: "#4e79a7", sort: { x: "-y" } }),
      Plot.text(rows, { x: "emotion", y: "count", text: "count", dy: -6, lineAnchor: "bottom" }),
      Plot.ruleY([0]),
    ],
  });
}
