/**
 * Rich display for the Deno Jupyter kernel: importing this module makes an
 * Arquero table that ends a cell render as an HTML table (with a plain-text
 * twin), and a tidepool error as a short message. It also gives `display`,
 * `saveTable` and the table views for use anywhere.
 *
 * @module
 */

import { installRichDisplay } from "./install_rich_display.ts";

installRichDisplay();

export { display } from "./display.ts";
export { installRichDisplay } from "./install_rich_display.ts";
export {
  errorBundle,
  type MediaBundle,
  mediaBundle,
  TABLE_DIGEST_MIME,
  withSvgNamespaces,
} from "./media_bundle.ts";
export { tableHtml, type TableViewOptions } from "./table_html.ts";
export { tableText } from "./table_text.ts";
export { provenanceLine } from "./provenance_line.ts";
export { type ListCells, saveTable, type SaveTableOptions } from "./save_table.ts";
export { readTable } from "./read_table.ts";
export {
  type JupyterNamespace,
  jupyterNamespace,
  jupyterProgress,
  kernelProgress,
} from "./progress_display.ts";
