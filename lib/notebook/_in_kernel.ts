/**
 * Imported by `mod.ts`: inside the Deno Jupyter kernel, tables, plots and
 * tidepool errors render richly without importing `tidepool/notebook`, the
 * kernel's progress display becomes the default sink every client reports
 * to, and Observable Plot finds a document (`Plot.plot({ marks })` works as
 * Plot's documentation writes it); anywhere else this changes nothing and
 * loads nothing more.
 *
 * @module
 */

import { jupyterNamespace } from "./progress_display.ts";

if (jupyterNamespace()) await (await import("./_kernel_setup.ts")).setUpKernel();
