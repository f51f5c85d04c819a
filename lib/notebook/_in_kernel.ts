/**
 * Imported by `mod.ts`: inside the Deno Jupyter kernel, tables, plots and
 * tidepool errors render richly without importing `tidepool/notebook`, the
 * kernel's progress display becomes the default sink every client reports
 * to, and Observable Plot finds a document (`Plot.plot({ marks })` works as
 * Plot's documentation writes it); anywhere else this changes nothing.
 *
 * @module
 */

import { jupyterNamespace, kernelProgress } from "./progress_display.ts";
import { installRichDisplay } from "./install_rich_display.ts";
import { installKernelDocument } from "./kernel_document.ts";
import { setDefaultProgress } from "../progress/progress.ts";

if (jupyterNamespace()) {
  installRichDisplay();
  await installKernelDocument();
  setDefaultProgress(kernelProgress());
}
