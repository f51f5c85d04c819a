/**
 * A notebook's code cells as one module, so `reproduce` runs a notebook
 * under the same confinement as a script: the Deno Jupyter kernel takes no
 * permission flags (it runs with every permission), so the kernel is not
 * used. The cells run in order, in the notebook's folder, as the kernel
 * runs them; `Deno.jupyter` is provided (its display calls show nothing),
 * so cells that display, and tidepool's own kernel display, run unchanged.
 * A notebook whose cells declare one name twice, which the kernel allows
 * and a module does not, fails, saying so in the log.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { TidepoolError } from "../errors/errors.ts";

/** The module that provides `Deno.jupyter`, imported before any cell's import runs. */
const JUPYTER_SHIM =
  `// Written by tidepool's reproduce: Deno.jupyter for a notebook run as a module.
const displayed = (value: unknown) => ({ [Symbol.for("Jupyter.display")]: () => value });
const jupyter = {
  display: async (_value: unknown, _options?: unknown) => {},
  broadcast: async (_type: string, _content: unknown, _extra?: unknown) => {},
  html: (strings: TemplateStringsArray | string, ...values: unknown[]) => displayed({ "text/html": String.raw({ raw: strings }, ...values) }),
  md: (strings: TemplateStringsArray | string, ...values: unknown[]) => displayed({ "text/markdown": String.raw({ raw: strings }, ...values) }),
  svg: (strings: TemplateStringsArray | string, ...values: unknown[]) => displayed({ "image/svg+xml": String.raw({ raw: strings }, ...values) }),
  format: (value: unknown) => ({ "text/plain": Deno.inspect(value) }),
  image: (_data: unknown) => displayed({}),
  $display: Symbol.for("Jupyter.display"),
};
const real = Deno;
Object.defineProperty(globalThis, "Deno", {
  value: new Proxy(real, { get: (target, key) => key === "jupyter" ? jupyter : Reflect.get(target, key) }),
  configurable: true,
  writable: true,
});
`;

/**
 * Writes the module of a notebook's code cells beside it (in the scratch
 * copy) and returns its path.
 *
 * @param notebook The `.ipynb` file, inside the scratch copy.
 * @returns The module to run.
 */
export async function notebookModule(notebook: string): Promise<string> {
  let cells: { cell_type?: unknown; source?: unknown }[];
  try {
    const document = JSON.parse(await Deno.readTextFile(notebook));
    cells = Array.isArray(document?.cells) ? document.cells : [];
  } catch (error) {
    throw new TidepoolError(`Cannot reproduce: ${basename(notebook)} is not a notebook`, {
      details: (error as Error).message,
      hint: "Give the .ipynb file that wrote the bundle, unchanged",
    });
  }
  const code = cells.filter((cell) => cell?.cell_type === "code").map((cell, index) => {
    const source = Array.isArray(cell.source) ? cell.source.join("") : String(cell.source ?? "");
    return `// cell ${index + 1}\n${source}\n`;
  });
  const shim = join(dirname(notebook), ".tidepool-reproduce-jupyter.ts");
  const module = join(dirname(notebook), `.tidepool-reproduce-${basename(notebook, ".ipynb")}.ts`);
  await Deno.writeTextFile(shim, JUPYTER_SHIM);
  // The shim's import comes first, so it runs before any module a cell imports.
  await Deno.writeTextFile(
    module,
    `import "./${basename(shim)}";\n${code.join(";\n")}\nexport {};\n`,
  );
  return module;
}
