/**
 * Imported by `mod.ts`: inside the Deno Jupyter kernel, tables, plots and
 * tidepool errors render richly without importing `tidepool/notebook`, and
 * the kernel's progress display becomes the default sink every client
 * reports to; anywhere else this changes nothing.
 *
 * @module
 */

import { jupyterNamespace, kernelProgress } from "./progress_display.ts";
import { installRichDisplay } from "./install_rich_display.ts";
import { setDefaultProgress } from "../progress/progress.ts";

if (jupyterNamespace()) {
  installRichDisplay();
  setDefaultProgress(kernelProgress());
}
