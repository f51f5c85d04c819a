/**
 * What `_in_kernel.ts` turns on inside the Deno Jupyter kernel: rich display
 * of tables, plots and errors, a document for Observable Plot, and the
 * kernel's progress display as the default sink. A module of its own so that
 * a process outside the kernel never loads it (bench/import_bench.ts).
 *
 * @module
 */

import { kernelProgress } from "./progress_display.ts";
import { installRichDisplay } from "./install_rich_display.ts";
import { installKernelDocument } from "./kernel_document.ts";
import { setDefaultProgress } from "../progress/progress.ts";

/** Installs the kernel's displays, its document and its progress sink. */
export async function setUpKernel(): Promise<void> {
  installRichDisplay();
  await installKernelDocument();
  setDefaultProgress(kernelProgress());
}
