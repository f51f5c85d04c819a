/**
 * A heatmap of emotion category by body part, each cell labelled with its count.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import * as Plot from "@observablehq/plot";
import { countBy } from "./_counts.ts";
import type { PlotFigure } from "./plot_figure.ts";
import { renderPlot } from "./render_plot.ts";

/** Options of {@linkcode emotionBodyPartHeatmap}. */
export interface HeatmapOptions {
  /** Chart title; default none. */
  title?: string;
  /** Colour scheme of the cells; default `blues`. */
  scheme?: string;
}

/**
 * Emotion x body part heatmap: one cell per pair, filled by count and
 * labelled with it, so the counts are read off the cells themselves.
 *
 * @param table `emotion, bodyPart, count` (`analytics().emotionBodyPart`) or hits.
 * @param options Title and colour scheme.
 * @returns The figure: one rect per cell.
 *
 * @example From the analytics table
 * ```ts
 * import * as aq from "arquero";
 * const table = aq.table({ emotion: ["喜", "喜"], bodyPart: ["目", "頬"], count: [4, 2] });
 * console.log(emotionBodyPartHeatmap(table).svg.includes("頬")); // true
 * ```
 */
export function emotionBodyPartHeatmap(
  table: ColumnTable,
  options: HeatmapOptions = {},
): PlotFigure {
  const rows = countBy(table, ["emotion", "bodyPart"], "emotion x body part heatmap");
  const max = Math.max(1, ...rows.map((row) => Number(row.count)));
  return renderPlot({
    title: options.title,
    padding: 0.04,
    marginLeft: 40,
    x: { label: "身体部位 (body part)", axis: "top" },
    y: { label: "感情 (emotion)" },
    color: { scheme: options.scheme ?? "blues", legend: false } as Plot.ScaleOptions,
    marks: [
      Plot.cell(rows, { x: "bodyPart", y: "emotion", fill: "count", inset: 0.5 }),
      Plot.text(rows, {
        x: "bodyPart",
        y: "emotion",
        text: "count",
        fill: (row: Record<string, unknown>) => (Number(row.count) > max * 0.6 ? "white" : "black"),
      }),
    ],
  });
}
