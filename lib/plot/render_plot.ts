/**
 * Renders Observable Plot options to a {@linkcode PlotFigure} outside a
 * browser, with a linkedom document.
 *
 * @module
 */

import { installCanvas } from "../notebook/_dom_canvas.ts";
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { flattenFigure } from "./_flatten_figure.ts";
import { PlotFigure } from "./plot_figure.ts";

/** Observable Plot's own options type, re-exported so the one below can be read. */
export type ObservablePlotOptions = Plot.PlotOptions;

/** Plot options, as `Plot.plot` takes them (the `document` is supplied). */
export type PlotOptions = Omit<ObservablePlotOptions, "document">;

/**
 * Renders a Plot chart to standalone SVG. Continuous colour legends need a
 * canvas, which a DOM shim has not, so they are never drawn: a chart that
 * asks for one is drawn without it (label the cells or use a categorical
 * scale instead). Titles, subtitles, captions and swatch legends are drawn
 * inside the SVG.
 *
 * @param options Plot options.
 * @returns The rendered figure.
 *
 * @example A small bar chart
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * const figure = renderPlot({
 *   marks: [Plot.barY([{ emotion: "喜", count: 3 }], { x: "emotion", y: "count" })],
 * });
 * console.log(figure.svg.includes("喜")); // true
 * ```
 */
export function renderPlot(options: PlotOptions): PlotFigure {
  // linkedom's types describe a browser window; only its document is used.
  const { document } = parseHTML(
    "<!DOCTYPE html><html><head></head><body></body></html>",
  ) as unknown as { document: unknown };
  // A continuous legend draws its ramp on a canvas: linkedom's gets one.
  installCanvas(document);
  const withDocument = { ...options, document } as unknown as Plot.PlotOptions;
  const result: unknown = Plot.plot(withDocument);
  return new PlotFigure(flattenFigure(result as Parameters<typeof flattenFigure>[0]));
}
