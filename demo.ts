/**
 * The demo: starts the sandbox services (or uses the real ones named in
 * TIDEPOOL_* variables), runs the notebook stories as one script, writes
 * every table as CSV and every chart as SVG under `out/`, the same as a
 * bundle for a paper under `out/bundle/` (CSV, Parquet, SVG, a Data Package
 * and an RO-Crate), each table's digest (columns, types, SHA-256 of its
 * canonical text) in `out/table_digests.json`, and prints a short summary.
 * A run replayed from its recording (TIDEPOOL_CACHE_MODE=replay) writes the
 * same digests.
 *
 * Run: deno task demo
 */

import * as aq from "arquero";
import * as Plot from "@observablehq/plot";
import type { ColumnTable } from "arquero";
import {
  Archive,
  deriveProvenance,
  ExpressionSearch,
  OceanNode,
  saveBundle,
  sparql,
  Subgraph,
  subgraphInfo,
  type TableDigest,
  tableDigest,
  withLineage,
} from "./mod.ts";
import { saveTable } from "./lib/files/mod.ts";
import {
  emotionBodyPartHeatmap,
  emotionDistributionChart,
  expressionsPerYearChart,
  keywordInContextChart,
  type PlotFigure,
  renderPlot,
  savePlot,
  valenceByBookChart,
} from "./lib/plot/mod.ts";
import { computePlan, openServices, type Services } from "./lib/sandbox/mod.ts";

const OUT = Deno.args[0] ?? "out";
const written: { file: string; rows?: number }[] = [];
/** Everything written, again, for the bundle. */
const bundled: { tables: Record<string, ColumnTable>; plots: Record<string, PlotFigure> } = {
  tables: {},
  plots: {},
};
const digests: Record<string, TableDigest> = {};

async function table(name: string, data: ColumnTable): Promise<ColumnTable> {
  const file = `${OUT}/${name}.csv`;
  await saveTable(file, data);
  written.push({ file, rows: data.numRows() });
  bundled.tables[name] = data;
  digests[name] = tableDigest(data);
  return data;
}

async function chart(name: string, figure: PlotFigure): Promise<void> {
  const file = `${OUT}/${name}.svg`;
  await savePlot(file, figure);
  written.push({ file });
  bundled.plots[name] = figure;
}

/** Monday 00:00 UTC of the week a date falls in. */
function weekOf(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day;
}

async function oceanAssets(node: OceanNode): Promise<ColumnTable> {
  const assets = await table("ocean_assets", await node.searchAssets({}));
  const tags = withLineage(
    assets.select("did", "tags").unroll("tags").groupby("tags").count()
      .orderby(aq.desc("count")).slice(0, 15),
    {
      inputs: { assets },
      steps:
        'assets.select("did", "tags").unroll("tags").groupby("tags").count().orderby(desc("count")).slice(0, 15)',
    },
  );
  await table("ocean_assets_by_tag", tags);
  await chart(
    "ocean_assets_by_tag",
    renderPlot({
      marginLeft: 110,
      title: "Assets per tag (top 15)",
      y: { label: null },
      marks: [Plot.barX(tags.objects(), { x: "count", y: "tags", sort: { y: "-x" } })],
    }),
  );
  const months = withLineage(
    assets
      .derive({
        month: aq.escape((d: { created: Date | null }) =>
          d.created?.toISOString().slice(0, 7) ?? null
        ),
      })
      .groupby("month", "type").count().orderby("month", "type"),
    {
      inputs: { assets },
      steps:
        'assets.derive({ month: the year and month of "created" }).groupby("month", "type").count().orderby("month", "type")',
    },
  );
  await table("ocean_assets_by_month", months);
  await chart(
    "ocean_assets_by_month",
    renderPlot({
      title: "Assets created per month",
      marginBottom: 50,
      x: { type: "band", tickRotate: -45, label: null },
      color: { legend: true },
      marks: [Plot.barY(months.objects(), { x: "month", y: "count", fill: "type" })],
    }),
  );
  await table("ocean_environments", await node.environmentsTable(11155111));
  return assets;
}

/**
 * A free compute job: against the sandbox node its example dataset and
 * algorithm with the sandbox wallet; against a real node the DIDs in
 * TIDEPOOL_COMPUTE_DATASET and TIDEPOOL_COMPUTE_ALGORITHM with the key in
 * OCEAN_PRIVATE_KEY (skipped with a one-line reason when one is not set).
 */
async function computeToData(node: OceanNode, services: Services): Promise<void> {
  const plan = await computePlan(node, services);
  if ("skipped" in plan) {
    console.log(plan.skipped);
    return;
  }
  const { signer } = plan;
  const [job] = await node.startFreeCompute({
    signer,
    environment: plan.environment,
    algorithm: plan.algorithm,
    datasets: plan.datasets,
  });
  const done = await node.waitForJob(signer.address, job.jobId, { pollMs: plan.pollMs });
  const dir = `${OUT}/compute_results`;
  await Deno.mkdir(dir, { recursive: true });
  const files = await table(
    "compute_result_files",
    await node.downloadResults(done, { signer, dir }),
  );
  const output = files.filter((d: { type: string }) => d.type === "output").get(
    "path",
    0,
  ) as string;
  const summary = JSON.parse(await Deno.readTextFile(output)) as Record<
    string,
    {
      rows: number;
      columns: Record<string, { count: number; mean: number; min: number; max: number }>;
    }
  >;
  // Named after the job's files, so the bundle says where it came from (and that it was not recorded).
  const stats = deriveProvenance(
    aq.from(
      Object.entries(summary).flatMap(([did, { columns }]) =>
        Object.entries(columns).map(([column, s]) => ({ did, column, ...s }))
      ),
    ),
    { operation: "summary of the job's output", inputs: { files } },
  );
  await table("compute_summary", stats);
  await chart(
    "compute_summary",
    renderPlot({
      title: "Computed where the data is: range and mean per column",
      marginLeft: 90,
      y: { label: null },
      marks: [
        Plot.ruleY(stats.objects(), { y: "column", x1: "min", x2: "max" }),
        Plot.dot(stats.objects(), { y: "column", x: "mean", r: 5, fill: "currentColor" }),
      ],
    }),
  );
}

async function subgraphOrders(sg: Subgraph, assets: ColumnTable): Promise<void> {
  const meta = await sg.meta();
  const orders = await table("subgraph_orders", await sg.orders());
  const info = subgraphInfo(orders);
  console.log(
    `subgraph: block ${meta.block}, ${orders.numRows()} orders, stale: ${info?.stale ?? "unknown"}`,
  );
  const weekly = withLineage(
    orders
      .derive({ week: aq.escape((d: { createdAt: Date }) => weekOf(d.createdAt)) })
      .groupby("week").count().orderby("week"),
    {
      inputs: { orders },
      steps:
        'orders.derive({ week: Monday 00:00 UTC of "createdAt" }).groupby("week").count().orderby("week")',
    },
  );
  await table("subgraph_orders_per_week", weekly);
  await chart(
    "subgraph_orders_per_week",
    renderPlot({
      title: "Orders per week",
      marks: [Plot.lineY(weekly.objects(), { x: "week", y: "count" }), Plot.ruleY([0])],
    }),
  );
  const byDatatoken = assets.select("did", "name", "datatokens").unroll("datatokens")
    .derive({ datatoken: (d: { datatokens: string }) => aq.op.lower(d.datatokens) })
    .select("did", "name", "datatoken");
  const top = withLineage(
    orders.groupby("datatoken").count({ as: "orders" })
      .join_left(byDatatoken, "datatoken")
      .orderby(aq.desc("orders")).slice(0, 10),
    {
      inputs: { orders, assets },
      steps:
        'orders.groupby("datatoken").count({ as: "orders" }).join_left(assets.select("did", "name", "datatokens").unroll("datatokens") with datatoken = lower(datatokens), "datatoken").orderby(desc("orders")).slice(0, 10)',
    },
  );
  await table("subgraph_top_datasets", top);
  await chart(
    "subgraph_top_datasets",
    renderPlot({
      marginLeft: 280,
      title: "Most ordered assets",
      y: { label: null },
      marks: [Plot.barX(top.objects(), { x: "orders", y: "name", sort: { y: "-x" } })],
    }),
  );
}

async function archiveLinkedData(archive: Archive): Promise<void> {
  const { hits, facets, total } = await archive.search({
    q: "Tokyo",
    facet: ["dcterms:creator", "dcterms:type"],
    expandEntities: true,
  });
  console.log(`archive: ${total} hits for Tokyo and its variant labels`);
  await table("archive_search_tokyo", hits);
  const creators = facets.get("dcterms:creator");
  if (creators) {
    await table("archive_facet_creators", creators);
    await chart(
      "archive_facet_creators",
      renderPlot({
        marginLeft: 160,
        y: { label: null },
        title: "Hits per creator",
        marks: [Plot.barX(creators.objects(), { x: "count", y: "value", sort: { y: "-x" } })],
      }),
    );
  }
  const place = "Tokyo";
  const rows = await archive.sparql(sparql`
    PREFIX schema: <http://schema.org/>
    PREFIX dcterms: <http://purl.org/dc/terms/>
    SELECT ?item ?title ?date WHERE {
      ?item schema:name ?title ; dcterms:spatial ${place} .
      OPTIONAL { ?item dcterms:date ?date }
    } ORDER BY ?date`);
  await table("archive_sparql_tokyo", rows as ColumnTable);
  const records = await archive.harvest({ metadataPrefix: "oai_dc" });
  await table("archive_oai_records", records);
  const bySet = withLineage(
    records.select("identifier", "setSpec").unroll("setSpec").groupby("setSpec").count(),
    {
      inputs: { records },
      steps: 'records.select("identifier", "setSpec").unroll("setSpec").groupby("setSpec").count()',
    },
  );
  await table("archive_oai_by_set", bySet);
  await chart(
    "archive_oai_by_set",
    renderPlot({
      title: "Harvested records per set",
      y: { label: null },
      marginLeft: 100,
      marks: [Plot.barX(bySet.objects(), { x: "count", y: "setSpec", sort: { y: "-x" } })],
    }),
  );
  await table(
    "archive_resourcesync_changes",
    await archive.changeList({ from: "2025-01-01T00:00:00Z" }),
  );
}

async function expressions(ex: ExpressionSearch): Promise<void> {
  const stats = await ex.stats();
  await table("expressions_emotions", stats.emotions);
  const analytics = await ex.analytics();
  await table("expressions_emotion_body_part", analytics.emotionBodyPart);
  await chart("expressions_emotions", emotionDistributionChart(analytics.emotion));
  await chart("expressions_heatmap", emotionBodyPartHeatmap(analytics.emotionBodyPart));
  const books = await table("expressions_books", await ex.books());
  await chart("expressions_per_year", expressionsPerYearChart(books));
  const hits = await table("expressions_joy", await ex.searchAll({ emotion: ["喜"] }));
  await chart("expressions_valence_by_book", valenceByBookChart(hits));
  const { hits: tears } = await ex.search({ keyword: "涙", limit: 20 });
  await table("expressions_kwic_tears", tears);
  await chart("expressions_kwic_tears", keywordInContextChart(tears, { keyword: "涙" }));
}

const started = performance.now();
await Deno.mkdir(OUT, { recursive: true });
const services = await openServices({ ocean: { compute: { stepMs: 100 } } });
try {
  const options = { cache: services.cache, progress: false as const };
  const node = new OceanNode(services.urls.ocean, options);
  const assets = await oceanAssets(node);
  await computeToData(node, services);
  await subgraphOrders(new Subgraph(services.urls.subgraph, options), assets);
  await archiveLinkedData(
    new Archive(services.urls.archive, { ...services.archiveSite, ...options }),
  );
  await expressions(new ExpressionSearch(services.urls.expressions, options));
} finally {
  await services.close();
}
const bundle = await saveBundle(`${OUT}/bundle`, {
  ...bundled,
  title: "tidepool demo",
  description: "Every table and chart of the tidepool demo, with where each table came from",
  authors: ["tidepool"],
  keywords: ["Ocean Protocol", "linked data", "OAI-PMH", "emotion expressions"],
  // The sandbox's data are generated: nothing in them restricts reuse.
  license: "https://creativecommons.org/publicdomain/zero/1.0/",
});
await Deno.writeTextFile(`${OUT}/table_digests.json`, JSON.stringify(digests, null, 2));

console.log(
  `\n${services.live ? "live services" : "sandbox"}: wrote ${written.length} files to ${OUT}/`,
);
for (const { file, rows } of written) {
  console.log(`  ${file.padEnd(44)} ${rows === undefined ? "chart" : `${rows} rows`}`);
}
console.log(
  `  ${`${OUT}/bundle/`.padEnd(44)} ${bundle.files.length} files: CSV, Parquet, SVG, ` +
    "index.html, CITATION.cff, datapackage.json, ro-crate-metadata.json",
);
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
