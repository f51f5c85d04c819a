/**
 * Writes the tables and plots behind a paper as one folder that other tools
 * can read and check: data files, a Frictionless Data Package and an
 * RO-Crate.
 *
 * @module
 */

import { checkOptions } from "../options/check_options.ts";
import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { columnTypes } from "../table/build_table.ts";
import { provenance } from "../table/provenance.ts";
import { lineage } from "../table/lineage.ts";
import { tableDigest } from "../table/table_digest.ts";
import type { PlotFigure } from "../plot/plot_figure.ts";
import type { PlotElement } from "../plot/plot_element.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { safeFileName } from "../fs/safe_file_name.ts";
import { TIDEPOOL_VERSION } from "../version.ts";
import { frictionlessSchema } from "./frictionless_schema.ts";
import type { BundleFile, SavedPlot, SavedTable } from "./_bundle_entries.ts";
import {
  type BundleAuthor,
  checkedAuthors,
  checkedKeywords,
  checkedLicense,
  checkedTitle,
} from "./_bundle_metadata.ts";
import { sha256Hex } from "./_sha256.ts";
import { SHA256SUMS, sha256sumsText } from "./_sha256sums.ts";

/**
 * The writers of a bundle's files, loaded with the first bundle so that
 * importing tidepool stays quick (bench/import_bench.ts).
 */
const writersCode = async () => {
  const [files, read, plots, csv, dataPackage, citation, crate, page] = await Promise.all([
    import("../files/save_table.ts"),
    import("../files/read_table.ts"),
    import("../plot/save_plot.ts"),
    import("./_csv_cells.ts"),
    import("./_data_package.ts"),
    import("./_citation_cff.ts"),
    import("./_ro_crate.ts"),
    import("./_index_html.ts"),
  ]);
  return { ...files, ...read, ...plots, ...csv, ...dataPackage, ...citation, ...crate, ...page };
};

export type { BundleFile } from "./_bundle_entries.ts";
export type { BundleAuthor } from "./_bundle_metadata.ts";

/** What {@linkcode saveBundle} writes, and how it describes it. */
export interface SaveBundleOptions {
  /** Tables by name; each becomes `<name>.csv` and `<name>.parquet`. */
  tables?: Readonly<Record<string, ColumnTable>>;
  /** Plots by name (figures or SVG markup); each becomes `<name>.svg`. */
  plots?: Readonly<Record<string, PlotFigure | PlotElement | string>>;
  /** The bundle's title, as a reader will cite it; required unless `draft`. */
  title?: string;
  /**
   * The authors, as names or `{ name, orcid, affiliation }`: Person entities
   * of the RO-Crate (the ORCID iD their id), contributors of the Data
   * Package, authors of CITATION.cff.
   */
  authors?: readonly (string | BundleAuthor)[];
  /** Keywords, for the RO-Crate, the Data Package and CITATION.cff. */
  keywords?: readonly string[];
  /** What the bundle is, for a reader of the paper; a sentence on its contents unless given. */
  description?: string;
  /**
   * The license of the files: an address (`https://creativecommons.org/licenses/by/4.0/`),
   * an entity of the RO-Crate and the Data Package's license (and its SPDX
   * id in CITATION.cff for the Creative Commons and Open Data Commons
   * licences), or a sentence on reuse. Required unless `draft`.
   */
  license?: string;
  /**
   * A bundle not yet meant for a repository: saved without a title (the
   * folder's name stands in) or a license (the metadata say none was given).
   * Default `false`.
   */
  draft?: boolean;
  /**
   * Prefix formula-like text cells of the CSV files with `'`, as `saveTable`
   * does (the field's description in the CSV's Table Schema then says so;
   * the Parquet file keeps the text as it is); default `true`.
   */
  escapeFormulas?: boolean;
  /**
   * Also replace (or remove) files of the earlier bundle here that were
   * changed since tidepool wrote them; files its RO-Crate does not list are
   * never touched either way. Default `false`: a changed file is refused.
   */
  overwrite?: boolean;
}

/** What {@linkcode saveBundle} wrote. */
export interface SavedBundle {
  /** The bundle folder. */
  readonly dir: string;
  /** Every file written, metadata files last, each with its size and SHA-256. */
  readonly files: readonly BundleFile[];
}

/** `1 table`, `2 tables`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const METADATA_FILES = [
  "CITATION.cff",
  "datapackage.json",
  "index.html",
  "ro-crate-metadata.json",
  SHA256SUMS,
];

/**
 * A file name from a table or plot name: `ordersPerWeek` → `orders_per_week`,
 * then through the one file-name sanitiser (a table named `CON` is `_con`).
 */
function fileStem(kind: string, name: string): string {
  const stem = safeFileName(
    name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, ""),
    "",
  );
  if (!stem) {
    throw new TidepoolError(`Cannot name a bundle file after the ${kind} "${name}"`, {
      hint: "Give it a name with Latin letters or digits, such as orders_per_week",
    });
  }
  return stem;
}

/** The stems of the names, checked to be distinct. */
function stems(kind: string, names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  return names.map((name) => {
    const stem = fileStem(kind, name);
    const other = seen.get(stem);
    if (other !== undefined) {
      throw new TidepoolError(
        `Cannot save the ${kind}s "${other}" and "${name}" in one bundle: both would be ${stem}`,
        { hint: `Rename one of the ${kind}s` },
      );
    }
    seen.set(stem, name);
    return stem;
  });
}

/**
 * Makes the folder ready. Only files tidepool wrote are replaced or removed:
 * the folder's RO-Crate must name tidepool as its maker, and a file counts
 * as tidepool's only while its bytes still have the SHA-256 that crate
 * recorded. Files of the earlier bundle this one no longer holds are
 * removed; any other file, or a file of the same name as one the bundle
 * writes, is refused, naming it, before anything is written.
 */
async function prepareFolder(
  dir: string,
  planned: ReadonlySet<string>,
  overwrite: boolean,
): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const ours = await earlierBundleFiles(dir, overwrite);
  const strangers: string[] = [];
  const stale: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !ours.has(entry.name)) strangers.push(entry.name);
    else if (!planned.has(entry.name)) stale.push(entry.name);
  }
  if (strangers.length) {
    throw new TidepoolError(
      `Cannot write the bundle into ${dir}: it holds files tidepool did not write: ${
        strangers.sort().slice(0, 5).join(", ")
      }${strangers.length > 5 ? ", ..." : ""}`,
      {
        hint:
          "Give a new or empty folder, or move those files out; tidepool replaces only the files of a bundle it wrote there, unchanged since (overwrite: true also replaces those changed since)",
      },
    );
  }
  // Files of an earlier bundle here that this one no longer holds (a table left out).
  for (const name of stale) await Deno.remove(`${dir}/${name}`);
}

/**
 * The files of an earlier tidepool bundle in the folder: its crate, and the
 * parts the crate lists (plain names only) whose bytes still have the
 * SHA-256 it recorded (or, with `changed`, whatever they hold now). Empty
 * when there is no crate or another tool made it.
 */
async function earlierBundleFiles(dir: string, changed: boolean): Promise<Set<string>> {
  let graph: Record<string, unknown>[];
  try {
    const crate = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
    graph = Array.isArray(crate["@graph"]) ? crate["@graph"] : [];
  } catch {
    return new Set(); // no crate, or not one we can read: its files count as strangers
  }
  const byId = new Map(graph.map((entity) => [entity?.["@id"], entity]));
  const madeByTidepool = graph.some((entity) =>
    entity?.["@type"] === "SoftwareApplication" && entity.name === "tidepool"
  );
  const root = byId.get("./");
  if (!madeByTidepool || !root) return new Set();
  // SHA256SUMS is written from the other files, after the crate, which therefore cannot list it.
  const names = new Set<string>(["ro-crate-metadata.json", SHA256SUMS]);
  for (const part of [root.hasPart].flat()) {
    const id = (part as { "@id"?: unknown })?.["@id"];
    const recorded = byId.get(id)?.sha256;
    if (typeof id !== "string" || typeof recorded !== "string") continue;
    let name: string;
    try {
      name = decodeURI(id);
    } catch {
      continue; // A malformed escape names no file of ours.
    }
    if (!/^[^./\\][^/\\]*$/.test(name)) continue;
    const now = await describeFile(dir, name, "").catch(() => undefined);
    if (now && (changed || now.sha256 === recorded)) names.add(name);
  }
  return names;
}

async function describeFile(dir: string, path: string, mediaType: string): Promise<BundleFile> {
  const bytes = await Deno.readFile(`${dir}/${path}`);
  return { path, mediaType, bytes: bytes.byteLength, sha256: await sha256Hex(bytes) };
}

async function saveOneTable(
  dir: string,
  name: string,
  stem: string,
  table: ColumnTable,
  escapeFormulas: boolean,
): Promise<SavedTable> {
  const { csvCells, readTable, saveTable } = await writersCode();
  const savedFrom = new Date().toISOString();
  const types = columnTypes(table);
  const csv = csvCells(table, types, escapeFormulas);
  await saveTable(`${dir}/${stem}.csv`, csv.table, { escapeFormulas: false });
  await saveTable(`${dir}/${stem}.parquet`, table);
  // Each file as a reader gets it back: what verifyBundle compares, like with like.
  const digests = {
    csv: tableDigest(await readTable(`${dir}/${stem}.csv`)),
    parquet: tableDigest(await readTable(`${dir}/${stem}.parquet`)),
  };
  return {
    name,
    csv: await describeFile(dir, `${stem}.csv`, "text/csv"),
    parquet: await describeFile(dir, `${stem}.parquet`, "application/vnd.apache.parquet"),
    schema: frictionlessSchema(table),
    escaped: csv.escaped,
    renamed: csv.renamed,
    rows: table.numRows(),
    columns: table.columnNames().map((column) => ({ name: column, type: types[column] })),
    head: table.objects({ limit: 10 }) as Record<string, unknown>[],
    digests,
    given: tableDigest(table).sha256,
    provenance: provenance(table),
    ...(lineage(table) ? { lineage: lineage(table) } : {}),
    savedFrom,
    savedUntil: new Date().toISOString(),
  };
}

/**
 * Saves tables and plots as a bundle for a paper, in one folder:
 *
 * - each table as `<name>.csv` (UTF-8; dates in UTC with their time, lists
 *   and objects as JSON text) and `<name>.parquet` (types and provenance
 *   kept: `readTable` gives the table back with both);
 * - each plot as `<name>.svg`;
 * - `datapackage.json`, a Frictionless Data Package 2.0 listing every file
 *   with its size and SHA-256, each table with a Table Schema from its
 *   column types (see `frictionlessSchema` for the mapping);
 * - `ro-crate-metadata.json`, an RO-Crate 1.2 listing every file with its
 *   media type, size and SHA-256, and one `CreateAction` per table: tidepool
 *   and its version the instrument, the service and the query (parameters
 *   without secrets, the service's "as of", the cache keys) the object, the
 *   two files the result, the call's start and end the times, all read from
 *   `provenance(table)`. A table without provenance (made or changed with
 *   Arquero verbs, say) has no object, and its times are those of the save;
 *   one given its lineage with `withLineage` names its input tables (by
 *   digest, and by file when they are in the bundle) and its steps;
 * - `SHA256SUMS`, the SHA-256 of every other file, written last, so
 *   `sha256sum -c SHA256SUMS` checks the bundle on any machine.
 *
 * Names become file names (`ordersPerWeek` → `orders_per_week`). The folder
 * is made if needed and must hold no other files, so the metadata lists
 * everything in it; saving again into it replaces the bundle (files of the
 * earlier one that the new one does not hold are removed). Only files
 * tidepool wrote are ever replaced or removed: those its own RO-Crate lists
 * with the SHA-256 they still have; any other file is refused, untouched. Saving the
 * same tables again gives byte-identical CSV and Parquet files, and the same
 * figure the same SVG; only the times in the two metadata files change.
 * Each file appears under its name only when complete; the RO-Crate is
 * written after every file it describes, and `SHA256SUMS` last.
 *
 * @param dir The bundle folder.
 * @param options The tables, the plots, and the bundle's title, description and license.
 * @returns The folder and every file written, with its size and SHA-256.
 * @throws {TidepoolError} When there is nothing to save, two names give one
 *   file name, or the folder holds files tidepool did not write (or that
 *   changed since it wrote them).
 *
 * @example A bundle of one table
 * ```ts
 * import * as aq from "arquero";
 * const dir = await Deno.makeTempDir();
 * const bundle = await saveBundle(`${dir}/paper`, {
 *   tables: { counts: aq.table({ emotion: ["喜", "怒"], n: [3, 1] }) },
 *   title: "Emotion counts",
 *   license: "https://creativecommons.org/licenses/by/4.0/",
 * });
 * console.log(bundle.files.map((file) => file.path));
 * // ["counts.csv", "counts.parquet", "CITATION.cff", "datapackage.json", "index.html",
 * //  "ro-crate-metadata.json", "SHA256SUMS"]
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example The tables and charts of a notebook
 * ```ts
 * import * as aq from "arquero";
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph/subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const orders = await sg.orders({ since: "2024-01-01" });
 * const perToken = orders.groupby("datatoken").count().orderby(aq.desc("count"));
 * const dir = await Deno.makeTempDir();
 * const saved = await saveBundle(`${dir}/paper`, {
 *   tables: { orders, perToken },
 *   title: "Ocean orders, 2025-2026",
 *   authors: [{ name: "Ada Lovelace", orcid: "0000-0002-1825-0097" }],
 *   license: "https://creativecommons.org/licenses/by/4.0/",
 * });
 * console.log(saved);
 * ```
 */
export async function saveBundle(dir: string, options: SaveBundleOptions): Promise<SavedBundle> {
  checkOptions("saveBundle", options, {
    tables: "object",
    plots: "object",
    title: "string",
    authors: "any",
    keywords: "strings",
    description: "string",
    license: "string",
    draft: "boolean",
    escapeFormulas: "boolean",
    overwrite: "boolean",
  });
  const draft = options.draft === true;
  const title = checkedTitle(options.title, dir, draft);
  const license = checkedLicense(options.license, draft);
  const authors = checkedAuthors(options.authors);
  const tables = Object.entries(options.tables ?? {});
  const plots = Object.entries(options.plots ?? {});
  if (!tables.length && !plots.length) {
    throw new TidepoolError(`Cannot save an empty bundle into ${dir}`, {
      hint: "Give at least one table in `tables` or one plot in `plots`",
    });
  }
  const tableStems = stems("table", tables.map(([name]) => name));
  const plotStems = stems("plot", plots.map(([name]) => name));
  const planned = new Set([
    ...tableStems.flatMap((stem) => [`${stem}.csv`, `${stem}.parquet`]),
    ...plotStems.map((stem) => `${stem}.svg`),
    ...METADATA_FILES,
  ]);
  await prepareFolder(dir, planned, options.overwrite === true);
  const {
    CFF_PROFILE,
    citationCff,
    DATA_PACKAGE_PROFILE,
    dataPackage,
    indexHtml,
    roCrate,
    savePlot,
  } = await writersCode();
  const created = new Date().toISOString();
  const savedTables: SavedTable[] = [];
  for (const [index, [name, table]] of tables.entries()) {
    savedTables.push(
      await saveOneTable(dir, name, tableStems[index], table, options.escapeFormulas !== false),
    );
  }
  const savedPlots: SavedPlot[] = [];
  const charts = new Map<string, string>();
  for (const [index, [name, figure]] of plots.entries()) {
    const path = `${plotStems[index]}.svg`;
    await savePlot(`${dir}/${path}`, figure);
    charts.set(name, await Deno.readTextFile(`${dir}/${path}`));
    savedPlots.push({ name, svg: await describeFile(dir, path, "image/svg+xml") });
  }
  const entries = {
    title,
    description: options.description ??
      `${count(savedTables.length, "table")} and ${
        count(savedPlots.length, "plot")
      } saved by tidepool ${TIDEPOOL_VERSION}`,
    license,
    authors,
    keywords: checkedKeywords(options.keywords),
    created,
    tidepoolVersion: TIDEPOOL_VERSION,
    tables: savedTables,
    plots: savedPlots,
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFileAtomic(`${dir}/CITATION.cff`, citationCff(entries));
  const citationFile = await describeFile(dir, "CITATION.cff", "application/x-yaml");
  await writeFileAtomic(`${dir}/datapackage.json`, json(dataPackage(entries)));
  const packageFile = await describeFile(dir, "datapackage.json", "application/json");
  const dataFiles = [
    ...savedTables.flatMap((table) => [table.csv, table.parquet]),
    ...savedPlots.map((plot) => plot.svg),
  ];
  const page = indexHtml(entries, charts, [...dataFiles, citationFile, packageFile]);
  await writeFileAtomic(`${dir}/index.html`, page);
  const pageFile = await describeFile(dir, "index.html", "text/html");
  const describing = [
    { file: pageFile, name: "The bundle at a glance: its tables, charts and files, for a browser" },
    {
      file: citationFile,
      name: "How to cite these data (Citation File Format)",
      conformsTo: { id: CFF_PROFILE, name: "Citation File Format 1.2.0" },
    },
    {
      file: packageFile,
      name: "Data Package: the Table Schema of each table",
      conformsTo: { id: DATA_PACKAGE_PROFILE, name: "Data Package 2.0" },
    },
  ];
  await writeFileAtomic(`${dir}/ro-crate-metadata.json`, json(roCrate(entries, describing)));
  const crateFile = await describeFile(dir, "ro-crate-metadata.json", "application/ld+json");
  const written = [...dataFiles, citationFile, packageFile, pageFile, crateFile];
  // Last, for `sha256sum -c SHA256SUMS` on any machine: it covers every file, the crate too.
  await writeFileAtomic(`${dir}/${SHA256SUMS}`, sha256sumsText(written));
  const sumsFile = await describeFile(dir, SHA256SUMS, "text/plain");
  return { dir, files: [...written, sumsFile] };
}
