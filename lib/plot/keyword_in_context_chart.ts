/**
 * A keyword-in-context (KWIC) view of search hits: each hit on one line,
 * the match centred between its left and right context, the work on the left.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import * as Plot from "@observablehq/plot";
import { requireColumns } from "./_counts.ts";
import { splitAt } from "../expressions/kwic.ts";
import type { PlotFigure } from "./plot_figure.ts";
import { renderPlot } from "./render_plot.ts";

/** Options of {@linkcode keywordInContextChart}. */
export interface KeywordInContextOptions {
  /** The word to centre; default each hit's `surface`. */
  keyword?: string;
  /** Most lines shown; default 30. */
  maxRows?: number;
  /** Characters of context on each side; default 18. */
  span?: number;
  /** Chart title; default none. */
  title?: string;
}

/** One KWIC line. */
interface Line {
  row: number;
  title: string;
  left: string;
  match: string;
  right: string;
}

function splitContext(context: string, match: string, span: number): [string, string, string] {
  const at = match ? context.indexOf(match) : -1;
  if (at < 0) return ["", match, context.slice(0, span)];
  return splitAt(context, at, match, span);
}

/**
 * Keyword in context: one line per hit with the left context right-aligned,
 * the match in the centre, the right context left-aligned and the title of
 * the work as the line label.
 *
 * @param hits Hits with `title, surface, context` (`search().hits`, `searchAll()`).
 * @param options The keyword, line count, context span and title.
 * @returns The figure: three text marks (left, match, right) per line.
 *
 * @example Centring a keyword
 * ```ts
 * import * as aq from "arquero";
 * const hits = aq.table({ title: ["こころ"], surface: ["涙をこぼした"], context: ["先生は涙をこぼした。"] });
 * console.log(keywordInContextChart(hits, { keyword: "涙" }).svg.includes("先生は")); // true
 * ```
 */
export function keywordInContextChart(
  hits: ColumnTable,
  options: KeywordInContextOptions = {},
): PlotFigure {
  requireColumns(hits, ["title", "surface", "context"], "keyword-in-context view");
  const span = options.span ?? 18;
  const rows = hits.objects({ limit: options.maxRows ?? 30 }) as Record<string, unknown>[];
  const lines: Line[] = rows.map((hit, row) => {
    const context = String(hit.context ?? "");
    const match = options.keyword ?? String(hit.surface ?? "");
    const [left, centre, right] = splitContext(context, match, span);
    return { row, title: String(hit.title ?? ""), left, match: centre, right };
  });
  const width = 960;
  const centre = 560;
  const matchWidth = Math.max(2, ...lines.map((line) => [...line.match].length)) * 12;
  const y = (line: Line) => line.row;
  return renderPlot({
    title: options.title,
    width,
    height: 22 * Math.max(1, lines.length) + 40,
    marginLeft: 150,
    marginRight: 10,
    x: { domain: [150, width - 10], axis: null },
    y: {
      domain: lines.map((line) => line.row),
      type: "band",
      tickFormat: (row: number) => lines[row]?.title ?? "",
      label: null,
      tickSize: 0,
    },
    marks: [
      Plot.text(lines, {
        x: centre - matchWidth / 2 - 6,
        y,
        text: "left",
        textAnchor: "end",
        fontSize: 12,
      }),
      Plot.text(lines, {
        x: centre,
        y,
        text: "match",
        fill: "#c0392b",
        fontWeight: "bold",
        fontSize: 12,
      }),
      Plot.text(lines, {
        x: centre + matchWidth / 2 + 6,
        y,
        text: "right",
        textAnchor: "start",
        fontSize: 12,
      }),
    ],
  });
}
