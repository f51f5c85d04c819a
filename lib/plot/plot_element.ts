/**
 * What `Plot.plot` returns when given a DOM shim's document (the one
 * `tidepool/plot` exports, or the kernel's): an SVG, or a figure around one,
 * and how it becomes a {@linkcode PlotFigure}.
 *
 * @module
 */

import { flattenFigure } from "./_flatten_figure.ts";
import { PlotFigure } from "./plot_figure.ts";

/** What `Plot.plot` returns with a linkedom document: an SVG, or a figure around one. */
export interface PlotElement {
  /** `svg` or `figure`. */
  tagName: string;
  /** The markup. */
  outerHTML: string;
}

/**
 * A {@linkcode PlotFigure} from what `Plot.plot` returned: one standalone
 * SVG, a figure's title, legend and caption drawn into it.
 *
 * @param element The SVG or figure element.
 * @returns The figure, for `savePlot` and `display`.
 */
export function plotFigure(element: PlotElement): PlotFigure {
  return new PlotFigure(flattenFigure(element as Parameters<typeof flattenFigure>[0]));
}

/** Whether a value is an element `Plot.plot` made with a DOM shim. */
export function isPlotElement(value: unknown): value is PlotElement {
  return typeof value === "object" && value !== null &&
    typeof (value as PlotElement).outerHTML === "string" &&
    typeof (value as PlotElement).tagName === "string";
}
