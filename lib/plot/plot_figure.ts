/**
 * A rendered chart: standalone SVG markup that a notebook shows as
 * `image/svg+xml` and a script saves as an `.svg` file.
 *
 * @module
 */

const DISPLAY = Symbol.for("Jupyter.display");

/**
 * A chart rendered to one standalone SVG document (namespaces declared,
 * title and legend drawn inside the SVG). The Deno Jupyter kernel shows it
 * as SVG when it ends a cell.
 *
 * @example Wrapping markup
 * ```ts
 * const figure = new PlotFigure('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
 * console.log(figure.tagName, figure.svg.length > 0);
 * ```
 */
export class PlotFigure {
  /** The standalone SVG markup. */
  readonly svg: string;

  /**
   * Wraps SVG markup that is already standalone; nothing is checked or rewritten.
   *
   * @param svg Standalone SVG markup.
   */
  constructor(svg: string) {
    this.svg = svg;
  }

  /** Always `svg`: notebook display code reads it like an element's tag name. */
  get tagName(): string {
    return "svg";
  }

  /** The SVG markup, as an element's outerHTML. */
  get outerHTML(): string {
    return this.svg;
  }

  /** The SVG markup. */
  toString(): string {
    return this.svg;
  }

  /** The bundle the Deno Jupyter kernel displays. */
  [DISPLAY](): Record<string, string> {
    return { "image/svg+xml": this.svg, "text/plain": "[SVG figure]" };
  }
}
