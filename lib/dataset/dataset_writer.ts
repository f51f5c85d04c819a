/**
 * A partitioned Parquet dataset written as records stream in: hive-style
 * `name=value` folders, one file per partition at each flush, never the
 * whole result in memory; resumable, with a checkpoint that keeps the
 * producer's state file in step with what is on disk.
 *
 * @module
 */

import { checkOptions } from "../options/check_options.ts";
import { TidepoolError } from "../errors/errors.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { makeOwnFolders } from "../fs/own_file.ts";
import { columnTypes, type DynamicColumns, TableBuilder } from "../table/build_table.ts";
import type { TableSchema } from "../table/schema.ts";
import type { ColumnTable } from "arquero";
import type { EncodedChunk } from "./_arrow_columns.ts";
import type { SeenKeys } from "../paging/_seen_keys.ts";
import {
  type Checkpoint,
  foreignFile,
  keyOf,
  partitionFolder,
  readCheckpoint,
  removeUncommitted,
  writeCheckpoint,
} from "./_dataset_files.ts";
import { readStateFile, restoreStateFile } from "./_state_file.ts";
import { readKeys, refuseLink } from "./_dataset_keys.ts";

// The Arrow encoder and the Parquet writer load with the first page, so that
// importing tidepool stays quick (bench/import_bench.ts).
const arrowCode = () => import("./_arrow_columns.ts");
const parquetCode = () => import("./parquet.ts");

/** One partition level: a folder `name=value` per value. */
export interface DatasetPartition<R> {
  /** The partition column name, as readers (DuckDB, Spark, Trino) will show it. */
  name: string;
  /** The record's value; null or empty goes to `__HIVE_DEFAULT_PARTITION__`. */
  value: (record: R) => string | null | undefined;
}

/** Options of a {@linkcode DatasetWriter}. */
export interface DatasetWriterOptions<R> {
  /** How records become columns; not needed when the pages are tables. */
  schema?: TableSchema<R>;
  /** Extra columns discovered from the records (files may then differ in columns). */
  dynamic?: DynamicColumns<R>;
  /**
   * Partition levels, outermost first: column names (the folder takes the
   * column's value as text, a date as its ISO 8601 day) or `{ name, value }`
   * levels; default none (files directly in the folder).
   */
  partitionBy?: string | readonly (string | DatasetPartition<R>)[];
  /**
   * Rows held in memory before they are written, across partitions; each
   * flush writes one file (one row group) per partition. Default 20,000:
   * the flush, not the pages held (about 0.4 KB a harvested record), is
   * what costs memory, in parquet-wasm and in the garbage it leaves.
   */
  flushRows?: number;
  /**
   * Bytes of Arrow buffers held before they are written, across partitions;
   * default 2 MiB (about 5,500 harvested oai_dc records). Whichever of
   * `flushRows` and `flushBytes` comes first flushes. A flush holds several
   * copies at once (the buffers, a merged copy, its Arrow IPC form,
   * parquet-wasm's copy and output, and wasm memory never shrinks), so wide
   * rows are written in smaller files rather than in a higher peak: with
   * 20,000-row flushes a 10^6-record harvest peaked at 315 to 324 MiB, with
   * 2 MiB ones under 300 (bench/RESULTS.md).
   */
  flushBytes?: number;
  /**
   * Columns whose values together identify a row: a row whose key was
   * already in the dataset when the writer opened is not written again (a
   * resumed run repeats what it had not confirmed). Those keys are held in
   * memory, compactly (about 16 bytes a row, see `lib/paging/_seen_keys.ts`);
   * repeats within one run are the producer's to drop (a harvest does), so
   * a fresh run holds none.
   */
  key?: readonly string[];
  /**
   * A file the producer keeps its position in (an OAI-PMH harvest state):
   * copied into the dataset's checkpoint at every flush and put back when
   * the writer opens, so the producer resumes from what is on disk rather
   * than from what it had handed on. The dataset owns this file once it
   * has claimed it: a file already at that name that the dataset's
   * checkpoint does not claim (a user's own file), or a symbolic link there,
   * is refused when the writer opens, and kept.
   */
  stateFile?: string;
}

/** What a writer has written. */
export interface DatasetSummary {
  /** The dataset folder. */
  dir: string;
  /** Rows in the dataset, earlier runs included. */
  rows: number;
  /** Rows this run wrote. */
  written: number;
  /** Rows this run dropped as already in the dataset. */
  duplicates: number;
  /** The dataset's Parquet files, relative to the folder. */
  files: string[];
}

/**
 * Writes records into a partitioned Parquet dataset. Open it with
 * {@linkcode DatasetWriter.open}, `write` pages as they arrive, `close` at
 * the end. Files appear under their final names only when complete; the
 * checkpoint `_tidepool_checkpoint.json` lists them, and a writer that opens
 * an interrupted dataset removes files the checkpoint does not list.
 *
 * @example Pages into a dataset partitioned by month
 * ```ts
 * import { defineSchema } from "../table/schema.ts";
 * const dir = await Deno.makeTempDir();
 * const schema = defineSchema([
 *   { name: "id", type: "string" },
 *   { name: "when", type: "date" },
 * ]);
 * const writer = await DatasetWriter.open(dir, {
 *   schema,
 *   partitionBy: [{ name: "month", value: (r) => String(r.when).slice(0, 7) }],
 * });
 * await writer.write([{ id: "a", when: "2026-01-02" }, { id: "b", when: "2026-02-03" }]);
 * const summary = await writer.close();
 * console.log(summary.rows, summary.files.length); // 2 2
 * ```
 */
export class DatasetWriter<R = Record<string, unknown>> {
  readonly #dir: string;
  readonly #options: DatasetWriterOptions<R>;
  readonly #checkpoint: Checkpoint;
  readonly #keys?: SeenKeys;
  /** Per partition folder, the pages held since the last flush, already in Arrow form. */
  readonly #buffers = new Map<string, { chunks: EncodedChunk[]; rows: number }>();
  readonly #flushRows: number;
  readonly #flushBytes: number;
  readonly #partitions: readonly (string | DatasetPartition<R>)[];
  #buffered = 0;
  #bufferedBytes = 0;
  #written = 0;
  #duplicates = 0;
  #closed = false;

  private constructor(
    dir: string,
    options: DatasetWriterOptions<R>,
    checkpoint: Checkpoint,
    keys?: SeenKeys,
  ) {
    this.#dir = dir;
    this.#options = options;
    this.#checkpoint = checkpoint;
    this.#keys = keys;
    this.#flushRows = Math.max(1, options.flushRows ?? 20_000);
    this.#flushBytes = Math.max(1, options.flushBytes ?? 2 * 1024 * 1024);
    this.#partitions = partitionLevels(options.partitionBy);
  }

  /**
   * Opens a dataset folder for writing, creating it if needed. An existing
   * dataset is continued: files the checkpoint does not list are removed,
   * the state file is put back as checkpointed, and with `key` the keys of
   * the rows already written are read.
   *
   * @param dir The dataset folder.
   * @param options Schema, partitions, flush size, key and state file.
   * @returns A writer.
   */
  static async open<R>(
    dir: string,
    options: DatasetWriterOptions<R>,
  ): Promise<DatasetWriter<R>> {
    checkOptions("writeDataset", options, {
      schema: "object",
      dynamic: "any",
      partitionBy: "any",
      flushRows: "integer",
      flushBytes: "integer",
      key: "strings",
      stateFile: "string",
    });
    partitionLevels(options.partitionBy);
    const earlier = await readCheckpoint(dir);
    if (!earlier) {
      // A folder tidepool did not start is never written into: nothing of the user's is touched.
      const foreign = await foreignFile(dir, options.stateFile);
      if (foreign !== undefined) {
        throw new TidepoolError(
          `Cannot write a dataset into ${dir}: it holds ${
            foreign.endsWith(".parquet") ? "Parquet files" : "files"
          } tidepool did not write (${foreign})`,
          { hint: "Give the dataset a new or empty folder of its own" },
        );
      }
    }
    await Deno.mkdir(dir, { recursive: true });
    const checkpoint: Checkpoint = earlier
      ? { ...earlier }
      : { version: 1, rows: 0, files: [], state: null };
    await removeUncommitted(dir, new Set(checkpoint.files));
    if (options.stateFile) await restoreStateFile(dir, options.stateFile, earlier, checkpoint);
    // Written before the producer runs: the folder and the state file's name are claimed.
    await writeCheckpoint(dir, checkpoint);
    let keys: SeenKeys | undefined;
    if (options.key) {
      keys = new (await import("../paging/_seen_keys.ts")).SeenKeys();
      for (const file of checkpoint.files) {
        await readKeys(`${dir}/${file}`, options.key, keys);
        await keys.compact();
      }
    }
    return new DatasetWriter(dir, options, checkpoint, keys);
  }

  /** Rows waiting in memory for the next flush. */
  get buffered(): number {
    return this.#buffered;
  }

  /**
   * Adds a page: records (built into columns by the schema) or a table
   * (its columns and types as they are). When the rows held reach
   * `flushRows` or their Arrow buffers `flushBytes`, every partition is
   * written and the checkpoint updated.
   *
   * @param page A page of records, or a table.
   */
  async write(page: Iterable<R> | ColumnTable): Promise<void> {
    if (this.#closed) throw new TidepoolError("Cannot write to a closed dataset writer");
    const { chunkBytes, encodeColumn } = await arrowCode();
    const { key = [] } = this.#options;
    const partitionBy = this.#partitions;
    const records = isTable(page) ? undefined : Array.from(page);
    const table = isTable(page) ? page : this.#build(records!);
    const rowCount = table.numRows();
    const partitionColumns = partitionBy.map((level) =>
      typeof level === "string" ? columnOf(table, level, "partition the dataset by") : undefined
    );
    const keyColumns = key.map((name) => columnOf(table, name, "key the dataset on"));
    const byFolder = new Map<string, number[]>();
    for (let row = 0; row < rowCount; row++) {
      if (this.#keys?.has(keyOf(keyColumns.map((values) => values[row])))) {
        this.#duplicates++;
        continue;
      }
      const record = partitionBy.some((level) => typeof level !== "string")
        ? (records ? records[row] : table.object(row) as R)
        : undefined;
      const folder = partitionFolder(
        partitionBy.map((level, i) =>
          typeof level === "string"
            ? [level, partitionText(partitionColumns[i]![row])]
            : [level.name, level.value(record!)]
        ),
      );
      const rows = byFolder.get(folder);
      if (rows) rows.push(row);
      else byFolder.set(folder, [row]);
    }
    const types = columnTypes(table);
    for (const [folder, rows] of byFolder) {
      let buffer = this.#buffers.get(folder);
      if (!buffer) {
        buffer = { chunks: [], rows: 0 };
        this.#buffers.set(folder, buffer);
      }
      const all = rows.length === rowCount;
      // Held as Arrow buffers: a tenth of the memory of the records themselves.
      const chunk: EncodedChunk = {
        length: rows.length,
        columns: Object.entries(types).map(([name, type]) => {
          const column = table.array(name) as ArrayLike<unknown>;
          const values = all ? Array.from(column) : rows.map((row) => column[row]);
          return encodeColumn({ name, type, values });
        }),
      };
      buffer.chunks.push(chunk);
      buffer.rows += rows.length;
      this.#buffered += rows.length;
      this.#bufferedBytes += chunkBytes(chunk);
    }
    if (this.#buffered >= this.#flushRows || this.#bufferedBytes >= this.#flushBytes) {
      await this.flush();
    }
  }

  #build(records: R[]): ColumnTable {
    const { schema, dynamic } = this.#options;
    if (!schema) {
      throw new TidepoolError("Cannot write records to a dataset without a schema", {
        hint: "Give the writer a schema, or write tables",
      });
    }
    const builder = new TableBuilder(schema, { dynamic });
    builder.add(records);
    return builder.build();
  }

  /** Writes every partition's rows held in memory, then the checkpoint. */
  async flush(): Promise<void> {
    const sequence = String(this.#checkpoint.files.length).padStart(6, "0");
    const run = crypto.randomUUID().slice(0, 8);
    for (const [folder, buffer] of this.#buffers) {
      if (buffer.rows === 0) continue;
      const relative = `${folder}part-${sequence}-${run}.parquet`;
      // A link planted at a partition's name is refused, never written through.
      await makeOwnFolders(this.#dir, folder).catch(refuseLink(this.#dir));
      const bytes = await (await parquetCode()).chunksToParquet(buffer.chunks);
      await writeFileAtomic(`${this.#dir}/${relative}`, bytes);
      this.#checkpoint.files.push(relative);
      this.#checkpoint.rows += buffer.rows;
      this.#written += buffer.rows;
    }
    this.#buffers.clear();
    this.#buffered = 0;
    this.#bufferedBytes = 0;
    if (this.#options.stateFile) {
      this.#checkpoint.state = await readStateFile(this.#dir, this.#options.stateFile);
    }
    await writeCheckpoint(this.#dir, this.#checkpoint);
  }

  /**
   * Writes what is left and closes the writer.
   *
   * @returns What the dataset holds and what this run wrote.
   */
  async close(): Promise<DatasetSummary> {
    if (!this.#closed) await this.flush();
    this.#closed = true;
    return {
      dir: this.#dir,
      rows: this.#checkpoint.rows,
      written: this.#written,
      duplicates: this.#duplicates,
      files: [...this.#checkpoint.files],
    };
  }
}

/**
 * Writes a stream of pages into a partitioned Parquet dataset and closes it:
 * the consumer of any tidepool page iterator (an OAI-PMH `harvestRecords`, ...).
 *
 * @param pages Pages of records, as any async iterable yields them.
 * @param dir The dataset folder.
 * @param options Schema, partitions, flush size, key and state file.
 * @returns What the dataset holds and what this run wrote.
 *
 * @example Two pages into a dataset
 * ```ts
 * import { defineSchema } from "../table/schema.ts";
 * async function* pages() {
 *   yield [{ id: "a" }];
 *   yield [{ id: "b" }];
 * }
 * const dir = await Deno.makeTempDir();
 * const summary = await writeDataset(pages(), dir, {
 *   schema: defineSchema([{ name: "id", type: "string" }]),
 * });
 * console.log(summary.rows); // 2
 * ```
 */
export async function writeDataset<R>(
  pages: AsyncIterable<Iterable<R> | ColumnTable>,
  dir: string,
  options: DatasetWriterOptions<R>,
): Promise<DatasetSummary> {
  const writer = await DatasetWriter.open(dir, options);
  for await (const page of pages) await writer.write(page);
  return writer.close();
}

/** The partition levels of the option, checked: column names and `{ name, value }` levels. */
function partitionLevels<R>(
  option: DatasetWriterOptions<R>["partitionBy"],
): readonly (string | DatasetPartition<R>)[] {
  if (option === undefined) return [];
  const levels = typeof option === "string" ? [option] : option;
  const valid = Array.isArray(levels) &&
    levels.every((level) =>
      (typeof level === "string" && level !== "") ||
      (typeof level === "object" && level !== null && typeof level.name === "string" &&
        level.name !== "" && typeof level.value === "function")
    );
  if (!valid) {
    throw new TidepoolError(`Invalid partitionBy option: ${describe(option)}`, {
      hint:
        'Give column names (partitionBy: ["year"]) or levels with a name and a value function (partitionBy: [{ name: "month", value: (r) => r.date.slice(0, 7) }])',
    });
  }
  return levels;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A column of the page, or an error naming the columns it has. */
function columnOf(table: ColumnTable, name: string, use: string): ArrayLike<unknown> {
  if (!table.columnNames().includes(name)) {
    throw new TidepoolError(`Cannot ${use} ${name}: the page has no such column`, {
      hint: `Use columns the pages have: ${table.columnNames().join(", ")}`,
    });
  }
  return table.array(name) as ArrayLike<unknown>;
}

/** A cell as a partition folder's value: dates as their ISO 8601 day, the rest as text. */
function partitionText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  }
  return String(value);
}

function isTable(page: unknown): page is ColumnTable {
  return typeof (page as ColumnTable).columnNames === "function" &&
    typeof (page as ColumnTable).numRows === "function";
}
