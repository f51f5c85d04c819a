/**
 * The `index.html` of a bundle: one page a reviewer opens from disk, with no
 * network, script or build step. It shows what the bundle is (title,
 * authors, licence, date), each table (columns and types, row count, first
 * rows, where it came from and its digest), each chart inline, every file
 * with its size and SHA-256, and the commands that verify and reproduce it.
 * Tables are `<table>`s with captions and column headers, charts are
 * figures with a title, so a screen reader can read the page too.
 *
 * @module
 */

import type { BundleEntries, BundleFile, SavedTable } from "./_bundle_entries.ts";

/** The SVG markup of each chart, by the chart's name. */
export type ChartMarkup = ReadonlyMap<string, string>;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A cell as a reader should see it: dates in ISO 8601, lists as JSON, long text shortened. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "object") {
    text = JSON.stringify(value, (_k, v) => typeof v === "bigint" ? String(v) : v);
  } else text = String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const NUMERIC = new Set(["number", "integer", "bigint"]);

function firstRowsTable(table: SavedTable): string {
  const columns = table.columns;
  const head = columns.map(({ name, type }) =>
    `<th scope="col">${escape(name)}<span class="type">${escape(type)}</span></th>`
  ).join("");
  const body = table.head.map((row) =>
    `<tr>${
      columns.map(({ name, type }) =>
        `<td${NUMERIC.has(type) ? ' class="num"' : ""}>${escape(cellText(row[name]))}</td>`
      ).join("")
    }</tr>`
  ).join("\n");
  const shown = table.head.length < table.rows
    ? `the first ${table.head.length} of ${table.rows} rows`
    : `all ${table.rows} ${table.rows === 1 ? "row" : "rows"}`;
  return `<div class="scroll"><table><caption>${escape(table.name)}: ${shown}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody></table></div>`;
}

/** What the page says of a table read with an API key. */
const READ_WITH_KEY =
  "read with an API key: the table, and the recording it was read from, may hold private data";

/** Where each input of a lineage is: another table of this bundle (a link), or its digest alone. */
export type TablesByDigest = ReadonlyMap<string, SavedTable>;

function lineageRows(table: SavedTable, tables: TablesByDigest): [string, string, string?][] {
  const made = table.lineage;
  if (!made) return [];
  return [
    ...made.inputs.map((input): [string, string, string?] => {
      const saved = tables.get(input.sha256);
      const from = input.operation ? `, from ${input.operation} at ${input.service}` : "";
      return [
        `Made from ${input.name}`,
        `${input.rows} ${input.rows === 1 ? "row" : "rows"}, table digest ${input.sha256}${from}`,
        saved ? `#table-${saved.csv.path.replace(/\.csv$/, "")}` : undefined,
      ];
    }),
    ["Steps", made.steps],
  ];
}

function provenanceList(table: SavedTable, tables: TablesByDigest): string {
  const from = table.provenance;
  const digest = table.digests.parquet;
  const made = lineageRows(table, tables);
  const rows: [string, string, string?][] = from
    ? [
      ["Service", from.service],
      ["Call", from.operation],
      // A derivation's parameters are its inputs' provenance: the lineage says it more plainly.
      ...(made.length ? [] : [["Parameters", JSON.stringify(from.params)] as [string, string]]),
      ["As of", Object.keys(from.asOf).length ? JSON.stringify(from.asOf) : "not stated"],
      ["Called", `${from.startedAt} to ${from.endedAt}`],
      ["Cache keys", from.cacheKeys.length ? from.cacheKeys.join(" ") : "none"],
      ...(from.readWithKey ? [["API key", READ_WITH_KEY] as [string, string]] : []),
    ]
    : made.length
    ? []
    : [[
      "Source",
      "no provenance: made or changed with Arquero verbs, or by a call that records none",
    ]];
  rows.unshift(...made);
  rows.push(["Table digest", digest.sha256]);
  return `<dl class="provenance">${
    rows.map(([term, value, link]) =>
      `<dt>${escape(term)}</dt><dd>${link ? `<a href="${escape(link)}">` : ""}<code>${
        escape(value)
      }</code>${link ? "</a>" : ""}</dd>`
    ).join("")
  }</dl>`;
}

function tableSection(table: SavedTable, tables: TablesByDigest): string {
  const id = table.csv.path.replace(/\.csv$/, "");
  const columns = table.columns.length;
  const withKey = table.provenance?.readWithKey ? ' data-read-with-key="true"' : "";
  return `<section id="table-${escape(id)}" class="table" data-table="${
    escape(table.name)
  }" data-rows="${table.rows}"${withKey}>
<h3>${escape(table.name)}</h3>
<p>${table.rows} ${table.rows === 1 ? "row" : "rows"} × ${columns} ${
    columns === 1 ? "column" : "columns"
  }; files <a href="${encodeURI(table.csv.path)}">${escape(table.csv.path)}</a> and <a href="${
    encodeURI(table.parquet.path)
  }">${escape(table.parquet.path)}</a></p>
${provenanceList(table, tables)}
${firstRowsTable(table)}
</section>`;
}

/** An SVG with a `<title>` (added when it has none), so it is announced by name. */
function titledSvg(markup: string, name: string): string {
  const svg = markup.replace(/^\s*<\?xml[^>]*>\s*/, "");
  const withRole = svg.replace(/^<svg\b/, '<svg role="img"');
  if (/^<svg\b[^>]*>\s*<title\b/.test(withRole)) return withRole;
  return withRole.replace(/^(<svg\b[^>]*>)/, `$1<title>${escape(name)}</title>`);
}

function chartSection(name: string, file: BundleFile, markup: string): string {
  return `<figure class="chart" data-chart="${escape(name)}">
${titledSvg(markup, name)}
<figcaption>${escape(name)} (<a href="${encodeURI(file.path)}">${
    escape(file.path)
  }</a>)</figcaption>
</figure>`;
}

function fileRows(files: readonly BundleFile[]): string {
  return files.map((file) =>
    `<tr><td><a href="${encodeURI(file.path)}">${
      escape(file.path)
    }</a></td><td class="num">${file.bytes}</td><td><code>${file.sha256}</code></td></tr>`
  ).join("\n");
}

const STYLE = `
body { font-family: system-ui, "Noto Sans CJK JP", "IPAGothic", "IPAPGothic", sans-serif;
  margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { margin-bottom: .2rem; }
.meta { color: #444; }
code { font-family: ui-monospace, "IPAGothic", monospace; font-size: .85em; word-break: break-all; }
pre { background: #f4f4f4; padding: .6rem .8rem; overflow-x: auto; }
table { border-collapse: collapse; font-size: .9em; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; white-space: nowrap; }
th, td { border-bottom: 1px solid #ddd; padding: .2rem .5rem; text-align: left; white-space: nowrap; }
th .type { display: block; font-weight: normal; color: #777; font-size: .85em; }
td.num { text-align: right; }
.scroll { overflow-x: auto; }
dl.provenance { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
dl.provenance dt { color: #555; }
dl.provenance dd { margin: 0; }
section.table { margin: 2rem 0; }
figure.chart { margin: 2rem 0; }
figure.chart svg { max-width: 100%; height: auto; }
`;

/**
 * The page, from what the bundle holds.
 *
 * @param entries The bundle's tables, plots and metadata.
 * @param charts The SVG markup of each plot, by name.
 * @param files The files written before the page, with sizes and SHA-256.
 * @returns The HTML text.
 */
export function indexHtml(
  entries: BundleEntries,
  charts: ChartMarkup,
  files: readonly BundleFile[],
): string {
  const authors = entries.authors.map((author) =>
    author.orcid
      ? `<a href="${escape(author.orcid)}">${escape(author.name)}</a>`
      : escape(author.name)
  ).join(", ");
  const license = entries.license.url
    ? `<a href="${escape(entries.license.url)}">${
      escape(entries.license.spdx ?? entries.license.url)
    }</a>`
    : escape(entries.license.text);
  const keywords = entries.keywords.length
    ? `<p class="meta">Keywords: ${entries.keywords.map(escape).join(", ")}</p>`
    : "";
  const byDigest = new Map(entries.tables.map((table) => [table.given, table]));
  const plots = entries.plots.map((plot) =>
    chartSection(plot.name, plot.svg, charts.get(plot.name) ?? "")
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tidepool ${escape(entries.tidepoolVersion)}">
<title>${escape(entries.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escape(entries.title)}</h1>
<p>${escape(entries.description)}</p>
<p class="meta">${authors ? `By ${authors}. ` : ""}License: ${license}. Saved ${
    escape(entries.created)
  } by tidepool ${escape(entries.tidepoolVersion)}.</p>
${keywords}
</header>
<main>
<section id="check">
<h2>Check and reproduce</h2>
<p>Three ways to check that every file is the one saved. On any machine, without tidepool, from this folder (<a href="SHA256SUMS">SHA256SUMS</a> holds the SHA-256 of every other file):</p>
<pre>sha256sum -c SHA256SUMS</pre>
<p>With tidepool, which also reads every table back to its digest and checks <code>datapackage.json</code> against the files; it only reads this folder. From a checkout of tidepool (version ${
    escape(entries.tidepoolVersion)
  }: <code>git clone</code> it, then, in its folder), naming this folder:</p>
<pre>deno task verify &lt;this folder&gt;</pre>
<p>Once tidepool ${
    escape(entries.tidepoolVersion)
  } is published on JSR (it needs the published package), without a checkout, from this folder:</p>
<pre>deno run --allow-read jsr:@tidepool/tidepool@${escape(entries.tidepoolVersion)}/verify .</pre>
<p>Re-run the notebook or script that made these tables from its recording, confined (it reads and writes only a scratch copy of its project, with no network, no subprocess and no environment), and compare every table's Parquet digest with this bundle's. From a checkout of tidepool, in its folder:</p>
<pre>deno task reproduce &lt;this folder&gt; &lt;notebook.ipynb or script.ts&gt; --recording &lt;recording folder&gt;</pre>
<p>Once tidepool ${escape(entries.tidepoolVersion)} is published on JSR, without a checkout:</p>
<pre>deno run -A jsr:@tidepool/tidepool@${
    escape(entries.tidepoolVersion)
  }/reproduce &lt;this folder&gt; &lt;notebook.ipynb or script.ts&gt; --recording &lt;recording folder&gt;</pre>
<p>How to cite: <a href="CITATION.cff">CITATION.cff</a>. Machine-readable descriptions: <a href="ro-crate-metadata.json">ro-crate-metadata.json</a> (RO-Crate 1.2), <a href="datapackage.json">datapackage.json</a> (Data Package 2.0).</p>
</section>
<section id="tables">
<h2>${entries.tables.length} ${entries.tables.length === 1 ? "table" : "tables"}</h2>
${entries.tables.map((table) => tableSection(table, byDigest)).join("\n")}
</section>
<section id="charts">
<h2>${plots.length} ${plots.length === 1 ? "chart" : "charts"}</h2>
${plots.join("\n")}
</section>
<section id="files">
<h2>Files</h2>
<table><caption>Every file of the bundle, with its size and SHA-256</caption>
<thead><tr><th scope="col">File</th><th scope="col">Bytes</th><th scope="col">SHA-256</th></tr></thead>
<tbody>
${fileRows(files)}
<tr><td>index.html</td><td colspan="2">this page; its size and SHA-256 are in ro-crate-metadata.json</td></tr>
<tr><td><a href="ro-crate-metadata.json">ro-crate-metadata.json</a></td><td colspan="2">written after the files it describes: it holds the SHA-256 of each</td></tr>
<tr><td><a href="SHA256SUMS">SHA256SUMS</a></td><td colspan="2">written last: the SHA-256 of every other file, for <code>sha256sum -c SHA256SUMS</code></td></tr>
</tbody></table>
</section>
</main>
</body>
</html>
`;
}
