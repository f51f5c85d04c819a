/**
 * `tidepool harvest --sources FILE --to DIR/`: many OAI-PMH repositories
 * into one Parquet dataset partitioned by source, with the other harvest
 * flags applying to every source and `--shard K/N` taking a stable share
 * of the list.
 *
 * @module
 */

import { harvestSources } from "../archive/oai/harvest_sources.ts";
import type { HarvestPartitioning } from "../archive/oai/harvest_dataset.ts";
import { readTextWithin } from "../fs/read_bounded.ts";
import { BusyError, UsageError } from "./exit_codes.ts";
import { type CommandContext, count, counted, type OptionSpec } from "./_command.ts";
import { lockFolder } from "./_state_files.ts";
import { parseSourceList } from "./_source_list.ts";

/** The flags of a harvest of many sources. */
export const SOURCES_FLAGS: Readonly<Record<string, OptionSpec>> = {
  sources: {
    type: "string",
    value: "FILE",
    description:
      "harvest every repository listed in FILE into --to DIR/: one URL a line (then prefix=P set=S from=D), a .json array of {url, prefix, set, from} or a .csv with a header row",
  },
  shard: {
    type: "string",
    value: "K/N",
    description: "with --sources: only the K-th of N stable shares of the list",
  },
  "per-host": {
    type: "string",
    value: "N",
    description: "with --sources: at most N requests in flight to one host (default 1)",
  },
};

/** The largest sources file read, in bytes. */
const MAX_LIST_BYTES = 64 * 1024 * 1024;

/** Reads `--shard K/N` as a 0-based index and a count. */
function shardOf(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  const [k, n] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || n < 1 || k < 1 || k > n) {
    throw new UsageError(`Invalid --shard ${text}: expected K/N with 1 <= K <= N`, {
      hint: "Give --shard 1/4 on the first of four machines, 2/4 on the second, ...",
    });
  }
  return { index: k - 1, count: n };
}

/** tidepool's state folder, where the per-host locks every process shares live. */
function hostLockFolder(env: (name: string) => string | undefined): string | undefined {
  const own = env("TIDEPOOL_STATE_DIR");
  if (own) return `${own}/locks/hosts`;
  const xdg = env("XDG_STATE_HOME");
  if (xdg) return `${xdg}/tidepool/locks/hosts`;
  const home = env("HOME");
  return home ? `${home}/.local/state/tidepool/locks/hosts` : undefined;
}

/**
 * Runs a harvest of many sources from the command line.
 *
 * @param context The run.
 * @param url A positional URL, refused here.
 * @param harvest The harvest options of the other flags.
 * @param partition `--partition`, if given.
 * @returns The exit code: 0 when every source was harvested, 1 when some failed.
 */
export async function runHarvestSources(
  context: CommandContext,
  url: string | undefined,
  harvest: {
    metadataPrefix: string;
    set?: string;
    from?: string;
    until?: string;
    verb: "ListRecords" | "ListIdentifiers";
  },
  partition: HarvestPartitioning | undefined,
): Promise<number> {
  const file = context.string("sources")!;
  if (url !== undefined) {
    throw new UsageError("Give either a repository URL or --sources FILE, not both", {
      hint: "Add the URL to the sources file",
    });
  }
  for (const flag of ["state", "api-key-env", "api-key-param"]) {
    if (context.string(flag) !== undefined) {
      throw new UsageError(`--${flag} is for one repository, not --sources`, {
        hint: "Each source keeps its state in its own partition of --to",
      });
    }
  }
  const target = await context.output(true, false);
  if (target.kind !== "folder") {
    throw new UsageError("--sources writes a Parquet folder", {
      hint: "Give --to a folder name ending in /, such as --to oai/",
    });
  }
  const shard = shardOf(context.string("shard"));
  const perHost = context.integer("per-host", 1, 64) ?? 1;
  let text: string;
  try {
    text = await readTextWithin(file, MAX_LIST_BYTES, `--sources ${file}`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new UsageError(`Cannot read --sources ${file}: no such file`, {
      hint: "Give a file with one repository URL a line, a JSON array or a CSV file",
    });
  }
  const sources = parseSourceList(text, file, harvest);
  const { concurrency, ...client } = context.clientOptions();
  const lockFolderPath = hostLockFolder(context.io.env);
  // Shards and overlapping runs lock each source's partition; only a run over the whole list locks the folder.
  using _folder = shard ? undefined : await lockFolder(target.path, "harvest").catch((error) => {
    if (!(error instanceof BusyError)) throw error;
    throw new BusyError(error.message, {
      hint: "Wait for it to end, then run again (exit code 75 means try later). To run several " +
        "processes into one folder, give them one list and --shard K/N each (1/N to N/N), " +
        "or give each list its own --to folder",
    });
  });
  const drawn = context.io.stderrIsTerminal && !context.quiet;
  const summary = await harvestSources({
    sources,
    dir: target.path,
    concurrency: concurrency ?? 8,
    perHost,
    shard,
    lockFolder: lockFolderPath,
    client: { ...client, progress: false },
    harvest: {
      ...harvest,
      // A source's own set wins; the flag's applies to the others.
      partitionBy: partition ?? "year",
    },
    onProgress: drawn
      ? (p) =>
        context.io.stderr(
          `\r\x1b[Kharvest: ${count(p.done)} done, ${count(p.failing)} failing, ${
            count(p.running)
          } running, ${count(p.waiting)} waiting, ${counted(p.records, "record")}`,
        )
      : undefined,
  });
  if (drawn) context.io.stderr("\r\x1b[K");
  const lines = summary.sources;
  const failed = lines.filter((line) => line.status === "failed");
  if (!context.quiet) {
    const rows = [
      ["source", "status", "records", "errors", "last datestamp"],
      ...lines.map((l) => [
        l.url + (l.set ? ` set=${l.set}` : ""),
        l.status,
        count(l.records),
        String(l.errors),
        l.lastDatestamp ?? "-",
      ]),
    ];
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const row of rows) {
      context.note(row.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
    }
    for (const line of failed) context.note(`failed: ${line.url}: ${line.error}`);
  }
  const records = lines.reduce((sum, line) => sum + line.records, 0);
  context.say(
    `harvest: ${counted(records, "record")} from ${
      counted(lines.length, "source")
    } into ${target.path}/ (${count(failed.length)} failed, retried on the next run)`,
  );
  return failed.length > 0 ? 1 : 0;
}
