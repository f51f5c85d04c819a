/**
 * Importing tidepool pays only for what every table needs. The heavy
 * packages (viem, saxes, jsonld, n3, sparqljs, parquet-wasm, DuckDB, Plot...)
 * load on first use through dynamic imports, and a signer's address and the
 * checksummed addresses need no curve or hash package (lib/ocean/_keccak.ts,
 * lib/ocean/_public_key.ts); a static import of one of them
 * would make every notebook's first cell slower (bench/import_bench.ts).
 * So does tidepool's own code: the work behind each method loads with the
 * method's first call.
 */

import assert from "node:assert/strict";

/**
 * What mod.ts reaches through static, non-type imports: the npm packages,
 * and tidepool's own files (paths from the repository root).
 */
async function eagerImports(): Promise<{ packages: string[]; files: Set<string> }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "mod.ts"],
    cwd: new URL("../..", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    redirects: Record<string, string>;
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const packages = new Set<string>();
  const files = new Set<string>();
  const root = new URL("../../", import.meta.url).href;
  const stack = [...info.roots];
  while (stack.length) {
    const next = stack.pop()!;
    const specifier = info.redirects[next] ?? next;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    if (specifier.startsWith("npm:")) {
      packages.add(/^npm:\/?(@?[^@/]+(?:\/[^@/]+)?)@/.exec(specifier)?.[1] ?? specifier);
      continue;
    }
    if (specifier.startsWith(root)) files.add(specifier.slice(root.length));
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) stack.push(dependency.code.specifier);
    }
  }
  return { packages: [...packages].sort(), files };
}

Deno.test("importing mod.ts loads arquero and nothing else", async () => {
  assert.deepEqual((await eagerImports()).packages, ["arquero"]);
});

Deno.test("importing mod.ts loads no read's code: each loads with its first call", async () => {
  // Each of these is the work behind a method or a function of mod.ts; the
  // facades import them on first use (lib/ocean/ocean_node.ts,
  // lib/archive/archive.ts ...), and mod.ts imports each name from the
  // file that defines it, since a folder's mod.ts evaluates all it re-exports.
  const lazy = [
    "lib/archive/sparql.ts",
    "lib/archive/sparql_all.ts",
    "lib/sparql/_sparql_results.ts",
    "lib/archive/search_all.ts",
    "lib/archive/upload.ts",
    "lib/ocean/_search_assets.ts",
    "lib/ocean/compute/start_compute.ts",
    "lib/ocean/compute/download_results.ts",
    "lib/ocean/download/download.ts",
    "lib/ocean/publish/encrypt.ts",
    "lib/subgraph/orders.ts",
    "lib/subgraph/paginate.ts",
    "lib/expressions/_collect_pages.ts",
    "lib/files/_arrow.ts",
    "lib/dataset/_arrow_columns.ts",
    "lib/xml/xml.ts",
    "lib/paging/walk_pages.ts",
    "lib/files/_csv.ts",
    "lib/bundle/_index_html.ts",
    "lib/plot/save_plot.ts",
    "lib/notebook/install_rich_display.ts",
  ];
  const { files } = await eagerImports();
  for (const file of lazy) await Deno.stat(new URL(`../../${file}`, import.meta.url));
  assert.deepEqual(lazy.filter((file) => files.has(file)), []);
});
