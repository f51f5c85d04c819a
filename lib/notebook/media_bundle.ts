import { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { escapeHtml } from "./_format_cell.ts";
import { tableHtml, type TableViewOptions } from "./table_html.ts";
import { tableText } from "./table_text.ts";
import { tableDigest } from "../table/table_digest.ts";

/**
 * The MIME type that carries a displayed table's digest (columns, types,
 * rows, SHA-256 of its canonical text) in the saved notebook, so a re-run,
 * replayed or live, can be compared with it table by table. Notebook
 * front ends show the HTML and ignore this entry.
 */
export const TABLE_DIGEST_MIME = "application/vnd.tidepool.table-digest+json";

/** A Jupyter MIME bundle: MIME type to content. */
export type MediaBundle = Record<string, string>;

/**
 * The richest form of a value that a notebook can show: tables as HTML with
 * a plain-text twin and their digest ({@linkcode TABLE_DIGEST_MIME}), tidepool errors as a short message, SVG elements as
 * `image/svg+xml`, other elements as HTML; undefined for anything else.
 *
 * @param value Any value.
 * @param options Table view options.
 * @returns The bundle, or undefined when the value has no rich form.
 *
 * @example The bundle of a table
 * ```ts
 * import * as aq from "arquero";
 * const bundle = mediaBundle(aq.table({ a: [1] }));
 * console.log(Object.keys(bundle ?? {}));
 * // ["text/plain", "text/html", "application/vnd.tidepool.table-digest+json"]
 * ```
 */
export function mediaBundle(
  value: unknown,
  options: TableViewOptions = {},
): MediaBundle | undefined {
  if (value instanceof ColumnTable) {
    return {
      "text/plain": tableText(value, options),
      "text/html": tableHtml(value, options),
      [TABLE_DIGEST_MIME]: JSON.stringify(tableDigest(value)),
    };
  }
  if (value instanceof TidepoolError) return errorBundle(value);
  if (isElementLike(value)) return elementBundle(value);
  return undefined;
}

/** A tidepool error as a short readable message, without a stack dump. */
export function errorBundle(error: TidepoolError): MediaBundle {
  const lines = [
    `${error.name}: ${error.shortMessage}`,
    ...(error.details ? [`${error.detailsLabel}: ${error.details}`] : []),
    ...(error.hint ? [`What to do: ${error.hint}`] : []),
  ];
  const html = `<div style="border-left:4px solid #c0392b;padding:4px 8px;background:#fdf2f2">` +
    `<strong>${escapeHtml(error.name)}</strong>: ${escapeHtml(error.shortMessage)}` +
    (error.details
      ? `<br><small>${escapeHtml(error.detailsLabel)}: ${escapeHtml(error.details)}</small>`
      : "") +
    (error.hint ? `<br><small>What to do: ${escapeHtml(error.hint)}</small>` : "") + `</div>`;
  return { "text/plain": lines.join("\n"), "text/html": html };
}

interface ElementLike {
  outerHTML: string;
  tagName: string;
}

function isElementLike(value: unknown): value is ElementLike {
  return typeof value === "object" && value !== null &&
    typeof (value as ElementLike).outerHTML === "string" &&
    typeof (value as ElementLike).tagName === "string";
}

function elementBundle(element: ElementLike): MediaBundle {
  const markup = withSvgNamespaces(element.outerHTML);
  if (element.tagName.toLowerCase() === "svg") {
    return { "image/svg+xml": markup, "text/plain": "[SVG figure]" };
  }
  // A figure (legend, title, caption around the SVG) is HTML.
  return { "text/html": markup, "text/plain": `[${element.tagName.toLowerCase()} element]` };
}

/**
 * Adds `xmlns` and `xmlns:xlink` to every `<svg>` start tag that lacks them:
 * Plot's SVG made with a DOM shim has neither, and browsers and JupyterLab
 * refuse an SVG image without them.
 *
 * @param markup SVG or HTML text.
 * @returns The text with the namespaces declared.
 *
 * @example Declaring the namespaces
 * ```ts
 * console.log(withSvgNamespaces('<svg width="2"></svg>'));
 * ```
 */
export function withSvgNamespaces(markup: string): string {
  return markup.replace(/<svg\b([^>]*)>/g, (_tag, attributes: string) => {
    let extra = "";
    if (!/\sxmlns=/.test(attributes)) extra += ' xmlns="http://www.w3.org/2000/svg"';
    if (!/\sxmlns:xlink=/.test(attributes)) extra += ' xmlns:xlink="http://www.w3.org/1999/xlink"';
    return `<svg${extra}${attributes}>`;
  });
}
