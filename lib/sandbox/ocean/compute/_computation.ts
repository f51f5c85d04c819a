/**
 * The sandbox's real computation over a dataset's files (the node's own
 * files, see `serviceFiles`): the algorithm computes summary statistics of
 * its numeric columns, failing like a real program when a column is missing
 * or when it needs more memory than the job was given.
 *
 * @module
 */

/**
 * The parts of one dataset as one CSV: the header of the first part, then
 * the rows of every part (the algorithm reads all of `/data/inputs/<did>`).
 */
export function joinCsvParts(parts: string[]): string {
  const [first = "", ...rest] = parts;
  return [first, ...rest.map((part) => part.slice(part.indexOf("\n") + 1))].join("");
}

/** Statistics of one numeric column. */
export interface ColumnSummary {
  count: number;
  sum: number;
  mean: number;
  min: number;
  max: number;
}

/** What the algorithm does with the inputs. */
export interface AlgorithmRun {
  exitCode: number;
  oomKilled: boolean;
  /** The output file's content, when the run succeeded. */
  output?: string;
  /** The algorithm's log. */
  log: string;
}

/**
 * Runs the summary-statistics algorithm over the datasets' CSV files.
 *
 * @param inputs Each dataset's DID and CSV.
 * @param custom `algocustomdata`: `columns` to summarise (default every
 *   numeric one), `memoryMb` the algorithm needs.
 * @param ramGiB Memory the job was given.
 */
export function runSummary(
  inputs: { did: string; csv: string }[],
  custom: Record<string, unknown> | undefined,
  ramGiB: number,
): AlgorithmRun {
  const log: string[] = [`reading ${inputs.length} input(s) from /data/inputs`];
  const memoryMb = Number(custom?.memoryMb ?? 64);
  if (memoryMb > ramGiB * 1024) {
    log.push(`allocating ${memoryMb} MB`, "Killed");
    return { exitCode: 137, oomKilled: true, log: log.join("\n") + "\n" };
  }
  const wanted = Array.isArray(custom?.columns) ? custom.columns.map(String) : undefined;
  const result: Record<string, unknown> = {};
  for (const { did, csv } of inputs) {
    const [header, ...rows] = csv.trim().split("\n").map((line) => line.split(","));
    const numeric = header.filter((_, i) =>
      rows.every((row) => row[i] !== "" && !isNaN(Number(row[i])))
    );
    const columns = wanted ?? numeric;
    const summary: Record<string, ColumnSummary> = {};
    for (const name of columns) {
      const i = header.indexOf(name);
      if (i < 0 || !numeric.includes(name)) {
        log.push(
          "Traceback (most recent call last):",
          '  File "/data/transformations/algorithm", line 12, in <module>',
          `KeyError: '${name}'`,
        );
        return { exitCode: 1, oomKilled: false, log: log.join("\n") + "\n" };
      }
      const values = rows.map((row) => Number(row[i]));
      const sum = values.reduce((a, b) => a + b, 0);
      summary[name] = {
        count: values.length,
        sum,
        mean: sum / values.length,
        min: Math.min(...values),
        max: Math.max(...values),
      };
    }
    log.push(`${did}: ${rows.length} rows, ${columns.length} columns summarised`);
    result[did] = { rows: rows.length, columns: summary };
  }
  log.push("wrote /data/outputs/summary.json");
  return {
    exitCode: 0,
    oomKilled: false,
    output: JSON.stringify(result, null, 2),
    log: log.join("\n") + "\n",
  };
}
