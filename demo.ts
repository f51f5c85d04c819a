/**
 * The demo: starts the sandbox services (or uses the real ones named in
 * TIDEPOOL_* variables), runs the notebook stories as one script, writes
 * every table as CSV and every chart as SVG under `out/`, and prints a short
 * summary.
 *
 * Run: deno task demo
 */

import * as aq from "arquero";
import * as Plot from "@observablehq/plot";
import type { ColumnTable } from "arquero";
import { ExpressionSearch, OceanNode, Subgraph, subgraphInfo } from "./mod.ts";
import { saveTable } from "./lib/notebook/mod.ts";
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
import { openServices } from "./lib/sandbox/mod.ts";

const OUT = Deno.args[0] ?? "out";
const written: { file: string; rows?: number }[] = [];

async function table(name: string, data: ColumnTable): Promise<ColumnTable> {
  const file = `${OUT}/${name}.csv`;
  await saveTable(file, data);
  written.push({ file, rows: data.numRows() });
  return data;
}

async function chart(name: string, figure: PlotFigure): Promise<void> {
  const file = `${OUT}/${name}.svg`;
  await savePlot(file, figure);
  written.push({ file });
}

/** Monday 00:00 UTC of the week a date falls in. */
function weekOf(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day;
}

async function oceanAssets(node: OceanNode): Promise<ColumnTable> {
  const assets = await table("ocean_assets", await node.searchAssets({}));
  const tags = assets.select("did", "tags").unroll("tags").groupby("tags").count()
    .orderby(aq.desc("count")).slice(0, 15);
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
  const months = assets
    .derive({
      month: aq.escape((d: { created: Date | null }) =>
        d.created?.toISOString().slice(0, 7) ?? null
      ),
    })
    .groupby("month", "type").count().orderby("month", "type");
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

async function subgraphOrders(sg: Subgraph, assets: ColumnTable): Promise<void> {
  const meta = await sg.meta();
  const orders = await table("subgraph_orders", await sg.orders());
  const info = subgraphInfo(orders);
  console.log(
    `subgraph: block ${meta.block}, ${orders.numRows()} orders, stale: ${info?.stale ?? "unknown"}`,
  );
  const weekly = orders
    .derive({ week: aq.escape((d: { createdAt: Date }) => weekOf(d.createdAt)) })
    .groupby("week").count().orderby("week");
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
  const top = orders.groupby("datatoken").count({ as: "orders" })
    .join_left(byDatatoken, "datatoken")
    .orderby(aq.desc("orders")).slice(0, 10);
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
const services = openServices();
try {
  const options = { cache: services.cache, progress: false as const };
  const node = new OceanNode(services.urls.ocean, options);
  const assets = await oceanAssets(node);
  await subgraphOrders(new Subgraph(services.urls.subgraph, options), assets);
  await expressions(new ExpressionSearch(services.urls.expressions, options));
} finally {
  await services.close();
}

console.log(
  `\n${services.live ? "live services" : "sandbox"}: wrote ${written.length} files to ${OUT}/`,
);
for (const { file, rows } of written) {
  console.log(`  ${file.padEnd(44)} ${rows === undefined ? "chart" : `${rows} rows`}`);
}
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
