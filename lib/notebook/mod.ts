/**
 * Rich display for the Deno Jupyter kernel: importing this module makes an
 * Arquero table that ends a cell render as an HTML table (with a plain-text
 * twin), and a tidepool error as a short message. It also gives `display`
 * and the table views for use anywhere. `saveTable` and `readTable` live in
 * `tidepool/files`; they are re-exported here for code written before.
 *
 * @module
 */

import "./_in_kernel.ts";
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
/** @deprecated Import from `tidepool/files` (or the root module) instead. */
export { type ListCells, saveTable, type SaveTableOptions } from "../files/save_table.ts";
/** @deprecated Import from `tidepool/files` (or the root module) instead. */
export { readTable } from "../files/read_table.ts";
export {
  type JupyterNamespace,
  jupyterNamespace,
  jupyterProgress,
  kernelProgress,
} from "./progress_display.ts";
