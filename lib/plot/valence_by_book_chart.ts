/**
 * The valence composition of each work as stacked, normalised bars.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import * as Plot from "@observablehq/plot";
import { countBy } from "./_counts.ts";
import type { PlotFigure } from "./plot_figure.ts";
import { renderPlot } from "./render_plot.ts";

const VALENCES = ["positive", "neutral", "ambiguous", "negative"];
const COLOURS = ["#59a14f", "#bab0ac", "#f1ce63", "#e15759"];

/** Options of {@linkcode valenceByBookChart}. */
export interface ValenceByBookOptions {
  /** Chart title; default none. */
  title?: string;
}

/**
 * Valence composition per work: one horizontal bar per title, split by
 * valence and normalised to 100%, with a swatch legend.
 *
 * @param table Hits with `title, valence` (e.g. `searchAll()`), or `title, valence, count`.
 * @param options Title.
 * @returns The figure: one rect per work and valence present.
 *
 * @example From counts
 * ```ts
 * import * as aq from "arquero";
 * const table = aq.table({ title: ["こころ", "こころ"], valence: ["positive", "negative"], count: [3, 7] });
 * console.log(valenceByBookChart(table).svg.includes("こころ")); // true
 * ```
 */
export function valenceByBookChart(
  table: ColumnTable,
  options: ValenceByBookOptions = {},
): PlotFigure {
  const rows = countBy(table, ["title", "valence"], "valence composition per work");
  const titles = new Set(rows.map((row) => row.title));
  const domain = [
    ...VALENCES,
    ...new Set(rows.map((row) => String(row.valence)).filter((v) => !VALENCES.includes(v))),
  ];
  return renderPlot({
    title: options.title,
    marginLeft: 130,
    height: Math.max(120, 22 * titles.size + 60),
    x: { label: "割合 (share)", percent: true },
    y: { label: null },
    color: {
      type: "categorical",
      domain,
      range: [...COLOURS, "#76b7b2", "#af7aa1"],
      legend: true,
    },
    marks: [
      Plot.barX(
        rows,
        Plot.stackX(
          {
            offset: "normalize",
            order: domain,
            x: "count",
            y: "title",
            fill: "valence",
            z: "valence",
            sort: { y: "y", reverse: false },
          } as Plot.BarXOptions & Plot.StackOptions,
        ),
      ),
      Plot.ruleX([0, 1]),
    ],
  });
}
