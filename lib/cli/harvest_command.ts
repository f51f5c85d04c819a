/**
 * `tidepool harvest`: an OAI-PMH harvest, resumable and incremental as
 * metha's: a file keeps a state beside it, an interrupted run continues,
 * and the next run asks only for what changed and merges it in; a folder
 * is a partitioned Parquet dataset that grows the same way.
 *
 * @module
 */

import { OaiPmh } from "../archive/oai/oai_pmh.ts";
import { harvestDataset, type HarvestPartitioning } from "../archive/oai/harvest_dataset.ts";
import { readTable } from "../files/read_table.ts";
import { saveTable } from "../files/save_table.ts";
import { UsageError } from "./exit_codes.ts";
import {
  CLIENT_FLAGS,
  type CommandContext,
  type CommandSpec,
  count,
  counted,
  OUTPUT_OPTIONS,
} from "./_command.ts";
import { encodeTable } from "../files/encode_table.ts";
import { harvestThenCommit } from "./incremental_harvest.ts";
import { mergeRecords } from "./merge_records.ts";

/** The state file beside a harvested file, unless `--state` names another. */
export function harvestStatePath(file: string): string {
  return `${file}.harvest.json`;
}

const PARTITIONS: readonly HarvestPartitioning[] = ["year", "month", "set", "none"];

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The harvest the flags ask for. */
function harvestOptions(context: CommandContext) {
  const verb = context.string("verb") ?? "ListRecords";
  if (verb !== "ListRecords" && verb !== "ListIdentifiers") {
    throw new UsageError(`Invalid --verb ${verb}`, { hint: "Give ListRecords or ListIdentifiers" });
  }
  return {
    metadataPrefix: context.string("prefix") ?? "oai_dc",
    set: context.string("set"),
    from: context.string("from"),
    until: context.string("until"),
    verb: verb as "ListRecords" | "ListIdentifiers",
  };
}

/** The `harvest` subcommand. */
export const HARVEST_COMMAND: CommandSpec = {
  name: "harvest",
  summary: "an OAI-PMH repository's records as a table, resumable, and incremental on the next run",
  usage:
    "harvest <oai-url> [--prefix oai_dc] [--set S] [--from D] [--until D] [--to FILE or FOLDER/]",
  arguments: [{ name: "oai-url", description: "the repository's OAI-PMH base URL" }],
  arity: [1, 1],
  options: {
    prefix: { type: "string", value: "P", description: "the metadata format (default oai_dc)" },
    set: { type: "string", value: "S", description: "only the records of set S" },
    from: { type: "string", value: "DATE", description: "only records changed at or after DATE" },
    until: { type: "string", value: "DATE", description: "only records changed at or before DATE" },
    verb: {
      type: "string",
      value: "VERB",
      description: "ListRecords (default) or ListIdentifiers (headers only)",
    },
    state: {
      type: "string",
      value: "FILE",
      description:
        "the harvest's state (default <file>.harvest.json beside --to; needed for an incremental harvest to standard output)",
    },
    partition: {
      type: "string",
      value: "BY",
      description: "a Parquet folder's partitions: year (default), month, set or none",
    },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
  },
  examples: [
    "tidepool harvest https://archive.example/acme/letters/api/oai --to letters.csv   # again tomorrow: only the changes",
    "tidepool harvest $OAI --set letter --from 2026-01-01 --to letters/ --partition month",
    "tidepool harvest $OAI --to - --format ndjson --state letters.state.json | jq -r .identifier",
  ],
  async run(context, { positionals: [url] }) {
    const target = await context.output(true);
    const harvest = harvestOptions(context);
    const partition = context.string("partition");
    if (partition !== undefined && !PARTITIONS.includes(partition as HarvestPartitioning)) {
      throw new UsageError(`Invalid --partition ${partition}`, {
        hint: `Give ${PARTITIONS.join(", ")}`,
      });
    }
    const oai = new OaiPmh(url, context.clientOptions());
    if (target.kind === "folder") {
      const summary = await harvestDataset(oai, target.path, {
        ...harvest,
        state: context.string("state"),
        partitionBy: (partition ?? "year") as HarvestPartitioning,
      });
      context.say(
        `harvest: ${counted(summary.written, "record")} written to ${target.path}/ (${
          count(summary.rows)
        } in the dataset, ${count(summary.files.length)} files)`,
      );
      return 0;
    }
    if (partition !== undefined) {
      throw new UsageError("--partition is for a Parquet folder", {
        hint: "Give --to a folder name ending in / to write a partitioned dataset",
      });
    }
    const stateFlag = context.string("state");
    if (target.kind === "stdout") {
      if (stateFlag === undefined) {
        const table = await oai.harvest(harvest);
        await context.io.stdout(await encodeTable(table, target.format));
        context.say(`harvest: ${counted(table.numRows(), "record")} to standard output`);
        return 0;
      }
      const run = await harvestThenCommit(
        oai,
        { ...harvest, state: stateFlag },
        true,
        async ({ table }) => context.io.stdout(await encodeTable(table, target.format)),
      );
      const what = run.incremental ? "new or changed record" : "record";
      context.say(`harvest: ${counted(run.table.numRows(), what)} to standard output`);
      return 0;
    }
    const { path } = target;
    const state = stateFlag ?? harvestStatePath(path);
    // Without the file the earlier runs wrote, only a whole harvest gives every record.
    const continuing = await exists(path);
    if (!continuing && await exists(state)) {
      context.note(`harvest: ${path} is missing, so every record is harvested again`);
    }
    let rows = 0;
    const run = await harvestThenCommit(oai, { ...harvest, state }, continuing, async (run) => {
      const table = run.incremental
        ? mergeRecords(await readTable(path), run.table, path)
        : run.table;
      rows = table.numRows();
      await saveTable(path, table);
    });
    const how = run.incremental
      ? `${counted(run.table.numRows(), "new or changed record")} merged into ${path} (${
        count(rows)
      } records)`
      : `${counted(rows, "record")} to ${path}`;
    context.say(`harvest: ${how}${run.resumed ? ", continuing the interrupted run" : ""}`);
    return 0;
  },
};
