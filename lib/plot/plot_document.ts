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
import { installCanvas } from "../notebook/_dom_canvas.ts";

/**
 * A linkedom document for `Plot.plot`'s `document` option.
 *
 * @example Plot as its documentation writes it, in a script
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * const svg = Plot.plot({ marks: [Plot.dot([{ x: 1, y: 2 }], { x: "x", y: "y" })], document });
 * console.log(typeof svg); // "object": an SVG element, for savePlot or display
 * ```
 */
export const document: PlotDocument = (parseHTML(
  "<!DOCTYPE html><html><head></head><body></body></html>",
) as unknown as { document: PlotDocument }).document;
// A continuous colour legend draws its ramp on a canvas: linkedom's gets one.
installCanvas(document);

/** The type Plot's `document` option has. */
export type PlotDocument = NonNullable<ObservablePlotOptions["document"]>;
