/**
 * Imported by `mod.ts`: inside the Deno Jupyter kernel, tables, plots and
 * tidepool errors render richly without importing `tidepool/notebook`;
 * anywhere else this changes nothing.
 *
 * @module
 */

import { jupyterNamespace } from "./progress_display.ts";
import { installRichDisplay } from "./install_rich_display.ts";

if (jupyterNamespace()) installRichDisplay();
