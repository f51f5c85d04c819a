/**
 * An OAI-PMH harvest written straight into a partitioned Parquet dataset,
 * as a consumer of `harvestRecords`: resumable through the harvest state,
 * which lives in the dataset folder and is checkpointed with its files.
 *
 * @module
 */

import { checkOptions } from "../../options/check_options.ts";
import { HARVEST_OPTION_RULES } from "../_option_rules.ts";
import type { DynamicColumns } from "../../table/build_table.ts";
import {
  type DatasetPartition,
  type DatasetSummary,
  DatasetWriter,
} from "../../dataset/dataset_writer.ts";
import { harvestSchema } from "./_schemas.ts";
import type { HarvestOptions, HarvestPage, OaiRecord } from "./types.ts";

/** How a harvested dataset is split into folders. */
export type HarvestPartitioning = "month" | "year" | "set" | "none";

/** Options of {@linkcode harvestDataset}. */
export interface HarvestDatasetOptions extends HarvestOptions {
  /**
   * Folders by the record's datestamp (`year=2026`, `month=2026-01`), by its
   * first set (`set=letter`; records in no set go to Hive's null folder), or
   * none. Default `year`. Each flush writes one file per folder, so many
   * folders make many small files: prefer `year` or `set` for long harvests.
   */
  partitionBy?: HarvestPartitioning | readonly DatasetPartition<OaiRecord>[];
  /** Rows held in memory before a flush; default 20,000. */
  flushRows?: number;
  /** Bytes of Arrow buffers held before a flush; default 2 MiB (about 5,500 oai_dc records). */
  flushBytes?: number;
}

/** Anything that streams harvest pages: an `OaiPmh` client or an `Archive`. */
export interface HarvestSource {
  /** The streaming harvest. */
  harvestRecords(options: HarvestOptions): AsyncIterable<HarvestPage>;
}

/** The harvest state's default place: inside the dataset, where readers skip `_` files. */
export const HARVEST_STATE_FILE = "_harvest_state.json";

const METADATA_COLUMNS: DynamicColumns<OaiRecord> = { read: (r) => r.metadata, type: "array" };

function partitions(
  partitionBy: HarvestDatasetOptions["partitionBy"] = "year",
): readonly DatasetPartition<OaiRecord>[] {
  if (typeof partitionBy !== "string") return partitionBy;
  switch (partitionBy) {
    case "month":
      return [{ name: "month", value: (r) => r.datestamp?.toISOString().slice(0, 7) }];
    case "year":
      return [{ name: "year", value: (r) => r.datestamp?.toISOString().slice(0, 4) }];
    case "set":
      return [{ name: "set", value: (r) => r.setSpec[0] }];
    case "none":
      return [];
  }
}

/**
 * Harvests into a hive-partitioned Parquet dataset, holding at most
 * `flushRows` records (or `flushBytes` of them) in memory. The columns are those of `harvest()`
 * (`identifier`, `datestamp`, `setSpec`, `deleted`, then the metadata
 * fields as list columns). Run it again with the same folder to resume an
 * interrupted harvest, or, after a complete one, to add the records changed
 * since: rows already in the dataset (same identifier and datestamp) are
 * not written twice; a changed record is added as a new row with its new
 * datestamp. Read the dataset with {@linkcode query} (a view on the folder),
 * DuckDB, Spark or Trino.
 *
 * @param source An `OaiPmh` client or an `Archive`.
 * @param dir The dataset folder; it also keeps the harvest state
 *   (`_harvest_state.json` unless `state` is given).
 * @param options The harvest (format, set, window) and the partitioning.
 * @returns What the dataset holds and what this run wrote.
 *
 * @example A harvest by month, then its size by month
 * ```ts ignore (needs DuckDB to query the dataset; tests/archive/oai runs it)
 * const oai = new OaiPmh("https://archive.example/acme/letters/api/oai");
 * const summary = await harvestDataset(oai, "out/letters", { partitionBy: "month" });
 * const byMonth = await query(
 *   "SELECT month, count(*) AS records FROM letters GROUP BY month ORDER BY month",
 *   { views: { letters: "out/letters" } },
 * );
 * ```
 */
export async function harvestDataset(
  source: HarvestSource,
  dir: string,
  options: HarvestDatasetOptions = {},
): Promise<DatasetSummary> {
  checkOptions("harvestDataset", options, {
    ...HARVEST_OPTION_RULES,
    partitionBy: "any",
    flushRows: "integer",
    flushBytes: "integer",
  });
  const { partitionBy, flushRows, flushBytes, ...harvest } = options;
  const verb = harvest.verb ?? "ListRecords";
  const schema = harvestSchema(verb, harvest.metadataPrefix ?? "oai_dc", harvest.raw);
  const state = harvest.state ?? `${dir}/${HARVEST_STATE_FILE}`;
  const writer = await DatasetWriter.open(dir, {
    schema,
    dynamic: verb === "ListRecords" ? METADATA_COLUMNS : undefined,
    partitionBy: partitions(partitionBy),
    flushRows,
    flushBytes,
    key: ["identifier", "datestamp"],
    stateFile: state,
  });
  for await (const page of source.harvestRecords({ ...harvest, state })) {
    await writer.write(page.records);
  }
  return writer.close();
}
