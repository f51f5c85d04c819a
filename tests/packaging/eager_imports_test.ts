/**
 * Importing tidepool pays only for what every table needs. The heavy
 * packages (viem, saxes, jsonld, n3, sparqljs, parquet-wasm, DuckDB, Plot...)
 * load on first use through dynamic imports, and a signer's address and the
 * checksummed addresses need no curve or hash package (lib/ocean/_keccak.ts,
 * lib/ocean/_public_key.ts); a static import of one of them
 * would make every notebook's first cell slower (bench/import_bench.ts).
 */

import assert from "node:assert/strict";

/** The npm packages mod.ts reaches through static, non-type imports. */
async function eagerPackages(): Promise<string[]> {
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
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) stack.push(dependency.code.specifier);
    }
  }
  return [...packages].sort();
}

Deno.test("importing mod.ts loads arquero and nothing else", async () => {
  assert.deepEqual(await eagerPackages(), [
    "@uwdata/flechette",
    "arquero",
  ]);
});
