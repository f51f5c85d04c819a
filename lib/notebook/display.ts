import { jupyterNamespace } from "./progress_display.ts";
import { mediaBundle } from "./media_bundle.ts";
import type { TableViewOptions } from "./table_html.ts";

/**
 * Shows a value: in the Deno Jupyter kernel as its richest form (a table
 * as HTML, a plot as SVG, a tidepool error as a short message), elsewhere
 * as text on stdout.
 *
 * @param value A table, a plot figure, an error or anything else.
 * @param options Table view options (rows, cell length).
 *
 * @example Showing a table from a script
 * ```ts
 * import * as aq from "arquero";
 * await display(aq.table({ emotion: ["喜"], count: [3] }));
 * ```
 */
export async function display(value: unknown, options: TableViewOptions = {}): Promise<void> {
  const bundle = mediaBundle(value, options);
  const jupyter = jupyterNamespace();
  if (jupyter) {
    if (bundle) await jupyter.display(bundle, { raw: true });
    else await jupyter.display({ "text/plain": Deno.inspect(value) }, { raw: true });
    return;
  }
  console.log(bundle?.["text/plain"] ?? value);
}
