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
import { writeTableFile } from "../files/save_table.ts";
import type { ClientOptions } from "../http/options.ts";
import { UsageError } from "./exit_codes.ts";
import {
  CLIENT_FLAGS,
  type CommandContext,
  type CommandSpec,
  count,
  counted,
  KEY_FLAG,
  OUTPUT_OPTIONS,
} from "./_command.ts";
import { encodeTable } from "../files/encode_table.ts";
import { harvestThenCommit, pendingPath } from "./incremental_harvest.ts";
import { mergeRecords, readHarvested } from "./merge_records.ts";
import { refuseForeignStateFiles, refuseOtherHarvest, restartHarvest } from "./_harvest_restart.ts";
import {
  claimOutput,
  identifiersOf,
  type OutputClaim,
  refuseSharedPaths,
} from "./_harvest_output.ts";
import { ledgerPath, writeLedger } from "./_owned_output.ts";
import { checkStateFile, isHarvestState, lockFolder, lockState } from "./_state_files.ts";
import { runHarvestSources, SOURCES_FLAGS } from "./harvest_sources_command.ts";

/** The state file beside a harvested file, unless `--state` names another. */
export function harvestStatePath(file: string): string {
  return `${file}.harvest.json`;
}

const PARTITIONS: readonly HarvestPartitioning[] = ["year", "month", "set", "none"];

/** A query parameter's name as repositories spell them (`api_key`, `wskey`, `x-api-key`). */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9._~-]{0,63}$/;

/**
 * The endpoint and client options that carry the key `--api-key-env` names:
 * in `Authorization: Bearer` (the archive platform's way), or in the query
 * parameter `--api-key-param` names. The key is registered as secret when
 * read, so the state, recordings and output name the endpoint without it.
 */
function keyed(context: CommandContext, url: string): { url: string; options: ClientOptions } {
  const options = context.clientOptions();
  const param = context.string("api-key-param");
  const key = context.apiKey();
  if (key === undefined) {
    if (param === undefined) return { url, options };
    throw new UsageError("--api-key-param names where the key goes, but no key was given", {
      hint: "Give --api-key-env NAME too, with the key in the environment variable NAME",
    });
  }
  if (param === undefined) {
    return { url, options: { ...options, headers: { Authorization: `Bearer ${key}` } } };
  }
  if (!PARAMETER_NAME.test(param)) {
    throw new UsageError(
      "Invalid --api-key-param: expected a query parameter name such as api_key",
    );
  }
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    return { url, options }; // the harvester refuses it, with its own hint
  }
  if (endpoint.searchParams.has(param)) {
    throw new UsageError(`The endpoint already has a ${param} parameter`, {
      hint: "Give the endpoint without it; the key goes there from --api-key-env",
    });
  }
  endpoint.searchParams.set(param, key);
  return { url: endpoint.toString(), options };
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
    raw: context.flag("raw"),
  };
}

/** The `harvest` subcommand. */
export const HARVEST_COMMAND: CommandSpec = {
  name: "harvest",
  summary: "an OAI-PMH repository's records as a table, resumable, and incremental on the next run",
  usage:
    "harvest <oai-url> or --sources FILE [--prefix oai_dc] [--set S] [--from D] [--until D] [--raw] [--to FILE or FOLDER/]",
  arguments: [{ name: "oai-url", description: "the repository's OAI-PMH base URL" }],
  arity: [0, 1],
  options: {
    ...SOURCES_FLAGS,
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
    restart: {
      type: "boolean",
      description:
        "start the harvest over: remove its state and the files kept beside it (not --to), then harvest every record",
    },
    raw: {
      type: "boolean",
      description:
        "keep each record's XML as sent (its <record> element) in a raw column, for formats a table cannot hold",
    },
    partition: {
      type: "string",
      value: "BY",
      description: "a Parquet folder's partitions: year (default), month, set or none",
    },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
    ...KEY_FLAG,
    "api-key-param": {
      type: "string",
      value: "PARAM",
      description:
        "send the key of --api-key-env as the query parameter PARAM (such as api_key) rather than as Authorization: Bearer",
    },
  },
  examples: [
    "tidepool harvest https://archive.example/acme/letters/api/oai --to letters.csv   # again tomorrow: only the changes",
    "tidepool harvest $OAI --set letter --from 2026-01-01 --to letters/ --partition month",
    "tidepool harvest $OAI --to - --format ndjson --state letters.state.json | jq -r .identifier",
    "tidepool harvest --sources repositories.txt --to oai/ --concurrency 16   # many repositories, one dataset",
    "tidepool harvest $OAI --api-key-env OAI_KEY --api-key-param api_key --to letters.csv   # a keyed repository",
  ],
  async run(context, { positionals: [url] }) {
    const harvest = harvestOptions(context);
    const partition = context.string("partition");
    if (partition !== undefined && !PARTITIONS.includes(partition as HarvestPartitioning)) {
      throw new UsageError(`Invalid --partition ${partition}`, {
        hint: `Give ${PARTITIONS.join(", ")}`,
      });
    }
    if (context.string("sources") !== undefined) {
      return runHarvestSources(context, url, harvest, partition as HarvestPartitioning);
    }
    if (url === undefined) {
      throw new UsageError("tidepool harvest takes a repository URL, or --sources FILE", {
        hint: `Usage: tidepool ${HARVEST_COMMAND.usage}`,
      });
    }
    const target = await context.output(true, false);
    if (partition !== undefined && target.kind !== "folder") {
      throw new UsageError("--partition is for a Parquet folder", {
        hint: "Give --to a folder name ending in / to write a partitioned dataset",
      });
    }
    const stateFlag = context.string("state");
    const state = target.kind === "file" ? stateFlag ?? harvestStatePath(target.path) : stateFlag;
    if (state !== undefined) {
      await checkStateFile("--state", state, isHarvestState);
      await refuseForeignStateFiles(state);
    }
    await refuseSharedPaths(target, state);
    const endpoint = keyed(context, url);
    const oai = new OaiPmh(endpoint.url, endpoint.options);
    if (context.flag("restart")) {
      if (state === undefined || target.kind === "folder") {
        throw new UsageError("--restart is for a harvest into a file, or with --state", {
          hint: "A Parquet folder keeps its state inside: give --to a new folder to start over",
        });
      }
      const removed = await restartHarvest(state);
      context.note(`harvest: starting over (removed ${removed.join(", ") || "nothing"})`);
    } else if (state !== undefined && target.kind !== "folder") {
      await refuseOtherHarvest(state, oai.endpoint, {
        verb: harvest.verb,
        metadataPrefix: harvest.metadataPrefix,
        set: harvest.set ?? null,
      });
    }
    if (target.kind === "folder") {
      using _folder = await lockFolder(target.path, "harvest");
      using _state = stateFlag === undefined ? undefined : await lockState(stateFlag, "harvest");
      const summary = await harvestDataset(oai, target.path, {
        ...harvest,
        state: stateFlag,
        partitionBy: (partition ?? "year") as HarvestPartitioning,
      });
      context.say(
        `harvest: ${counted(summary.written, "record")} written to ${target.path}/ (${
          count(summary.rows)
        } in the dataset, ${count(summary.files.length)} files)`,
      );
      return 0;
    }
    if (target.kind === "stdout") {
      if (state === undefined) {
        const table = await oai.harvest(harvest);
        await context.io.stdout(await encodeTable(table, target.format, target.cells));
        context.say(`harvest: ${counted(table.numRows(), "record")} to standard output`);
        return 0;
      }
      const run = await harvestThenCommit(
        oai,
        { ...harvest, state },
        true,
        async ({ table }) =>
          context.io.stdout(await encodeTable(table, target.format, target.cells)),
      );
      const what = run.incremental ? "new or changed record" : "record";
      context.say(`harvest: ${counted(run.table.numRows(), what)} to standard output`);
      return 0;
    }
    const { path } = target;
    // Refused before the lock file is made, so a refused run leaves nothing; asked again under the lock.
    let claim: OutputClaim = await claimOutput(path, state!);
    let rows = 0;
    const run = await harvestThenCommit(oai, { ...harvest, state: state! }, async () => {
      // Asked under the state's lock: whose the file is, and the identifiers it holds.
      claim = await claimOutput(path, state!);
      if (claim.note) context.note(`harvest: ${claim.note}`);
      return claim.continuing;
    }, async (run) => {
      const ledger = ledgerPath(pendingPath(state!));
      if (run.incremental && claim.identifiers && run.table.numRows() === 0) {
        // Nothing new or changed: the file stays as it is, byte for byte.
        rows = claim.identifiers.length;
        await writeLedger(ledger, path, claim.identifiers);
        return [[ledger, ledgerPath(state!)]];
      }
      const merged = run.incremental && claim.identifiers
        ? mergeRecords(await readHarvested(path), run.table, path, claim.identifiers)
        : run.table;
      rows = merged.numRows();
      await writeTableFile(path, merged, target.cells ?? {}, "command line", claim.sha256);
      // The ledger names the file and its identifiers as harvested; it is committed with the state.
      await writeLedger(ledger, path, identifiersOf(merged));
      return [[ledger, ledgerPath(state!)]];
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
