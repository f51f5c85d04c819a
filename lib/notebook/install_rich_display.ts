import { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { jupyterNamespace } from "./progress_display.ts";
import { errorBundle, type MediaBundle, mediaBundle } from "./media_bundle.ts";
import { flushCellResults } from "./_cell_result_flush.ts";

const DISPLAY = Symbol.for("Jupyter.display");
let installed = false;

/**
 * Makes Arquero tables and tidepool errors render richly when they are the
 * last value of a notebook cell, through the kernel's `Jupyter.display`
 * protocol, and (inside the kernel only) makes a thrown tidepool error show
 * as its message without a stack dump, and makes every cell's last value
 * arrive before the cell is reported done (the kernel could send it after,
 * and the notebook lost it). Called when `tidepool/notebook` is
 * imported; safe to call again. Outside the kernel it changes nothing
 * visible.
 *
 * @example Installing explicitly
 * ```ts
 * installRichDisplay();
 * ```
 */
export function installRichDisplay(): void {
  if (installed) return;
  installed = true;
  if (jupyterNamespace()) {
    TidepoolError.compactStacks = true;
    // A cell's last value could reach the notebook after the cell ended, and be lost.
    flushCellResults();
  }
  define(ColumnTable.prototype, function (this: ColumnTable) {
    return mediaBundle(this)!;
  });
  define(TidepoolError.prototype, function (this: TidepoolError) {
    return errorBundle(this);
  });
}

function define(target: object, render: (this: never) => MediaBundle): void {
  Object.defineProperty(target, DISPLAY, {
    value: render,
    configurable: true,
    writable: true,
    enumerable: false,
  });
}
