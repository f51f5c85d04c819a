/**
 * How tidepool runs a notebook in the Deno kernel (`jupyter nbconvert
 * --execute`): the arguments shared by `reproduceBundle` and the tests that
 * execute notebooks, so that a loaded machine cannot lose a cell's output.
 *
 * @module
 */

/**
 * The `nbconvert` arguments that execute a notebook in the Deno kernel.
 *
 * nbclient (which `nbconvert --execute` runs) waits only 4 s by default for a
 * cell's outputs once the kernel has replied, then moves on to the next cell
 * with a warning and drops what had not arrived: on a loaded machine a cell
 * lost its table or its chart and the run still passed. The Deno kernel
 * reports a cell idle a few milliseconds after its reply, so waiting as long
 * as a cell may run costs nothing on a working kernel, and a wait that still
 * runs out fails the run instead of dropping output.
 *
 * @param timeoutSeconds The longest a cell may run, and so the longest its
 *   outputs may take; also the bound on the kernel's start-up, which takes a
 *   second on a quiet machine.
 * @returns The arguments after `nbconvert`, before the output options and the notebook.
 */
export function executeNotebookArgs(timeoutSeconds: number): string[] {
  return [
    "--to",
    "notebook",
    "--execute",
    "--ExecutePreprocessor.kernel_name=deno",
    `--ExecutePreprocessor.timeout=${timeoutSeconds}`,
    `--ExecutePreprocessor.startup_timeout=${timeoutSeconds}`,
    `--ExecutePreprocessor.iopub_timeout=${timeoutSeconds}`,
    "--ExecutePreprocessor.raise_on_iopub_timeout=True",
  ];
}
