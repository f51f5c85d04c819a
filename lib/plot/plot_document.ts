/**
 * A DOM document for Observable Plot outside a browser: `Plot.plot({ marks,
 * document })`, as Plot's documentation writes it, then works in a Deno
 * script, and `savePlot` or `display` take what it returns. (In the Deno
 * Jupyter kernel, importing tidepool provides one as `window.document`, so
 * the option can be left out there.)
 *
 * @module
 */

import type { ObservablePlotOptions } from "./render_plot.ts";
import { parseHTML } from "linkedom";
import { flattenFigure } from "./_flatten_figure.ts";
import { PlotFigure } from "./plot_figure.ts";

/**
 * A linkedom document for `Plot.plot`'s `document` option.
 *
 * @example Plot as its documentation writes it, in a script
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * const svg = Plot.plot({ marks: [Plot.dot([{ x: 1, y: 2 }], { x: "x", y: "y" })], document });
 * console.log(plotFigure(svg).svg.startsWith("<svg")); // true
 * ```
 */
export const document: PlotDocument = (parseHTML(
  "<!DOCTYPE html><html><head></head><body></body></html>",
) as unknown as { document: PlotDocument }).document;

/** The type Plot's `document` option has. */
export type PlotDocument = NonNullable<ObservablePlotOptions["document"]>;

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
