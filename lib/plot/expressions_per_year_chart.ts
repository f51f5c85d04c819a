/**
 * Expressions per year of composition.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import * as Plot from "@observablehq/plot";
import { countBy } from "./_counts.ts";
import type { PlotFigure } from "./plot_figure.ts";
import { renderPlot } from "./render_plot.ts";

/** Options of {@linkcode expressionsPerYearChart}. */
export interface ExpressionsPerYearOptions {
  /** Chart title; default none. */
  title?: string;
}

/**
 * Expressions per year of composition, one bar a year on a time axis.
 *
 * @param table `books()` (sums `expressionCount` by `year`) or hits with `year` (counts rows).
 * @param options Title.
 * @returns The figure: one rect per year with expressions.
 *
 * @example From the books table
 * ```ts
 * import * as aq from "arquero";
 * const books = aq.table({ year: [1905, 1906, 1906], expressionCount: [10, 4, 6] });
 * console.log(expressionsPerYearChart(books).svg.length > 0); // true
 * ```
 */
export function expressionsPerYearChart(
  table: ColumnTable,
  options: ExpressionsPerYearOptions = {},
): PlotFigure {
  const countColumn = table.columnNames().includes("expressionCount") ? "expressionCount" : "count";
  const rows = countBy(table, ["year"], "expressions per year", countColumn);
  return renderPlot({
    title: options.title,
    width: 720,
    x: { label: "成立年 (year)", tickFormat: "d" },
    y: { label: "件数 (expressions)", grid: true },
    marks: [
      Plot.rectY(rows, { x: "year", y: "count", interval: 1, fill: "#f28e2b" }),
      Plot.ruleY([0]),
    ],
  });
}
