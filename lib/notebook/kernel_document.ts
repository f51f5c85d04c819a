/**
 * A DOM for the Deno Jupyter kernel, so Observable Plot works as its own
 * documentation writes it: `Plot.plot({ marks })` reads `window.document`,
 * which Deno does not have. In the kernel (and only there), tidepool gives
 * one from linkedom where none exists, and makes its elements display as
 * SVG (or HTML for a figure) when a cell ends with one.
 *
 * @module
 */

import { mediaBundle } from "./media_bundle.ts";
import { installCanvas } from "./_dom_canvas.ts";

const DISPLAY = Symbol.for("Jupyter.display");

/**
 * Installs a linkedom `window` and `document` as globals when there are
 * none, and the rich display of their elements. Called by the kernel setup;
 * a script passes `document` from `tidepool/plot` to `Plot.plot` instead.
 *
 * @returns Whether a document was installed (false when one existed).
 */
export async function installKernelDocument(): Promise<boolean> {
  const global = globalThis as { window?: unknown; document?: unknown };
  if (global.document !== undefined) return false;
  // Loaded only in a kernel: importing tidepool elsewhere does not pay for a DOM.
  const { parseHTML } = await import("linkedom");
  // linkedom's types describe a browser window; its document and elements are what is used.
  const page = parseHTML("<!DOCTYPE html><html><head></head><body></body></html>") as unknown as {
    window: { document: { createElement(name: string): object } };
    document: { createElement(name: string): object };
  };
  global.document = page.document;
  global.window ??= page.window;
  // A continuous colour legend draws its ramp on a canvas: linkedom's gets one.
  installCanvas(page.document);
  // Every linkedom element (HTML or SVG) shares the Element prototype: it displays as itself.
  let prototype = Object.getPrototypeOf(page.document.createElement("div"));
  while (prototype && prototype.constructor?.name !== "Element") {
    prototype = Object.getPrototypeOf(prototype);
  }
  if (prototype) {
    Object.defineProperty(prototype, DISPLAY, {
      value(this: unknown) {
        return mediaBundle(this);
      },
      configurable: true,
      writable: true,
      enumerable: false,
    });
  }
  return true;
}
