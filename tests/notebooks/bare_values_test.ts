/**
 * A notebook whose cells end with a bare value, the way Jupyter users write
 * them (`table` on the last line, not `await display(table)`), shows every
 * one, every time: the notebook runs four times in the real Deno kernel
 * (`jupyter nbconvert --execute`, as `reproduce` and the notebook tests run
 * it) and every cell's output is counted. Without tidepool's flush
 * (`lib/notebook/_cell_result_flush.ts`) the kernel sent 2 to 5 results in
 * 100 after the cell's `idle`, and nbclient dropped them: a run of these 160
 * cells then loses at least one in nearly every try.
 *
 * The values are the kinds tidepool renders: small tables, tables from the
 * sandbox, an Observable Plot element, a tidepool chart, a tidepool error
 * left as a value, and a thrown one (an `error` output, sent by the kernel
 * itself).
 */

import assert from "node:assert/strict";
import { TABLE_DIGEST_MIME } from "../../lib/notebook/mod.ts";
import { childEnvironment, codeCell, executeNotebook, jupyterAvailable } from "../_child_runs.ts";

const notebooksDir = new URL("../../notebooks/", import.meta.url).pathname;
const RUNS = 4;

interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  ename?: string;
}

interface Notebook {
  cells: { cell_type: string; outputs?: Output[]; metadata?: Record<string, unknown> }[];
}

const SETUP = [
  'import * as aq from "arquero";',
  'import * as Plot from "@observablehq/plot";',
  'import { ExpressionSearch, TidepoolError } from "@tidepool/tidepool";',
  'import { emotionDistributionChart } from "@tidepool/tidepool/plot";',
  'import { openServices } from "@tidepool/tidepool/sandbox";',
  "const services = await openServices();",
  "const ex = new ExpressionSearch(services.urls.expressions, { progress: false });",
  "const analytics = await ex.analytics();",
].join("\n");

/** Each bare-value cell with the MIME type its one output must carry. */
function bareCells(): { source: string; mime: string }[] {
  const cells: { source: string; mime: string }[] = [];
  for (let i = 0; i < 8; i++) {
    cells.push(
      { source: `aq.table({ n: [${i}, ${i + 1}], s: ["a${i}", "b"] })`, mime: TABLE_DIGEST_MIME },
      {
        source: `const t${i} = aq.table({ x: [${i}] });\nt${i}.derive({ y: (d) => d.x * 2 })`,
        mime: TABLE_DIGEST_MIME,
      },
      { source: `(await ex.books()).slice(0, ${i + 1})`, mime: TABLE_DIGEST_MIME },
      { source: "emotionDistributionChart(analytics.emotion)", mime: "image/svg+xml" },
      {
        source: `Plot.plot({ marks: [Plot.barY([${i + 1}, 2, 3])] })`,
        mime: "image/svg+xml",
      },
      {
        source: `new TidepoolError("bare error ${i}", { hint: "a hint" })`,
        mime: "text/html",
      },
    );
  }
  return cells;
}

Deno.test({
  name: `every bare value a cell ends with is shown, in ${RUNS} runs of the real kernel`,
  ignore: !jupyterAvailable(),
  async fn() {
    const cells = bareCells();
    const thrown = 'throw new TidepoolError("thrown on purpose", { hint: "none" });';
    const notebook = {
      cells: [
        codeCell(SETUP),
        ...cells.map((cell) => codeCell(cell.source)),
        { ...codeCell(thrown), metadata: { tags: ["raises-exception"] } },
      ],
      metadata: { kernelspec: { display_name: "Deno", language: "typescript", name: "deno" } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    // The kernel runs in notebooks/, where tidepool's deno.json is found.
    const path = `${notebooksDir}_bare-values-${crypto.randomUUID()}.ipynb`;
    const outDir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(path, JSON.stringify(notebook));
      const lost: string[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const executed = await executeNotebook<Notebook>(path, {
          outDir,
          environment: childEnvironment(),
          timeoutSeconds: 300,
        });
        const [setup, ...rest] = executed.cells;
        assert.deepEqual(
          (setup.outputs ?? []).filter((o) => o.output_type === "error"),
          [],
          "the setup cell failed",
        );
        cells.forEach((cell, index) => {
          const outputs = (rest[index].outputs ?? []).filter((o) => o.output_type !== "stream");
          const shown = outputs.filter((o) => o.data?.[cell.mime] !== undefined);
          if (outputs.length !== 1 || shown.length !== 1) {
            lost.push(
              `run ${run}, cell ${index + 1} (${cell.source.split("\n").at(-1)}): ` +
                `${outputs.map((o) => o.output_type).join(", ") || "no output"}`,
            );
          }
        });
        const errors = (rest.at(-1)!.outputs ?? []).filter((o) => o.output_type === "error");
        if (errors.length !== 1) lost.push(`run ${run}: the thrown error's cell`);
      }
      assert.deepEqual(lost, [], `${lost.length} of ${RUNS * (cells.length + 1)} outputs lost`);
    } finally {
      await Deno.remove(path).catch(() => {});
      await Deno.remove(outDir, { recursive: true });
    }
  },
});
