/**
 * The floors of docs/ARCHITECTURE.md, checked on the module graph Deno
 * itself resolves (`deno info --json` of mod.ts and of every other export in
 * deno.json, static, dynamic and type-only imports alike): a folder imports
 * only folders on floors below it, and no files import each other in a circle.
 * A crossing or a circle fails here, with the files named.
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const ADAPTERS = ["lib/ocean", "lib/subgraph", "lib/archive", "lib/expressions"];

/**
 * The floors of docs/ARCHITECTURE.md, ground first. A folder may import the
 * folders on floors below its own and nothing on its own floor but itself:
 * the four adapters and the notebook display stand side by side and know
 * nothing of each other, and neither do lib/http and lib/dataset, or
 * lib/sandbox and lib/bundle.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["lib/errors", "lib/fs", "lib/version.ts"],
  ["lib/progress", "lib/table", "lib/options", "lib/xml"],
  ["lib/paging"],
  ["lib/http", "lib/dataset"],
  ["lib/files"],
  ["lib/sparql"],
  [...ADAPTERS, "lib/notebook"],
  ["lib/plot"],
  ["lib/sandbox", "lib/bundle"],
  ["lib/cli"],
  ["mod.ts", "verify.ts", "reproduce.ts", "cli.ts"],
];

/** The folder (or top-level file) a repository path belongs to, as FLOORS names it. */
export function roomOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] !== "lib") return parts[0];
  return parts.length === 2 ? path : `lib/${parts[1]}`;
}

/** The floor of a room, or undefined for a room FLOORS does not place. */
function floorOf(room: string): number | undefined {
  const floor = FLOORS.findIndex((rooms) => rooms.includes(room));
  return floor < 0 ? undefined : floor;
}

/** An import from one repository file to another, with the line it stands on. */
export interface Edge {
  from: string;
  to: string;
  line: number;
}

/** The repository's own files and their imports, from `deno info --json` of each root. */
async function moduleGraph(roots: string[]): Promise<Edge[]> {
  const prefix = pathToFileURL(ROOT).href + "/";
  const edges = new Map<string, Edge>();
  for (const root of roots) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", root],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      modules: {
        specifier: string;
        dependencies?: {
          code?: { specifier: string; span: { start: { line: number } } };
          type?: { specifier: string; span: { start: { line: number } } };
        }[];
      }[];
    };
    for (const module of graph.modules) {
      if (!module.specifier.startsWith(prefix)) continue;
      const from = module.specifier.slice(prefix.length);
      for (const dependency of module.dependencies ?? []) {
        for (const target of [dependency.code, dependency.type]) {
          if (!target?.specifier.startsWith(prefix)) continue;
          const to = target.specifier.slice(prefix.length);
          if (to === "deno.json") continue;
          edges.set(`${from} ${to}`, { from, to, line: target.span.start.line + 1 });
        }
      }
    }
  }
  return [...edges.values()];
}

/** The files that import each other in a circle, each circle sorted (Tarjan's algorithm). */
export function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    const selfImport = next.get(file)!.includes(file);
    if (circle.length > 1 || selfImport) found.push(circle.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The imports that go sideways or up a floor, or to a room FLOORS does not place. */
export function crossings(edges: readonly Edge[]): string[] {
  return edges.flatMap(({ from, to, line }) => {
    const [source, target] = [roomOf(from), roomOf(to)];
    if (source === target) return [];
    const [below, above] = [floorOf(target), floorOf(source)];
    if (below !== undefined && above !== undefined && below < above) return [];
    return [`${from}:${line} -> ${to}`];
  }).sort();
}

const exportsOf = (): string[] => {
  const config = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))) as {
    exports: Record<string, string>;
  };
  return Object.values(config.exports);
};

const graph = await moduleGraph(exportsOf());

const importsBetween = (source: (room: string) => boolean, target: (room: string) => boolean) =>
  graph.filter(({ from, to }) => source(roomOf(from)) && target(roomOf(to)))
    .map(({ from, line, to }) => `${from}:${line} -> ${to}`);

Deno.test("the graph is read: it holds every folder FLOORS places and every export", () => {
  const rooms = new Set(graph.flatMap(({ from, to }) => [roomOf(from), roomOf(to)]));
  for (const room of FLOORS.flat()) assert.ok(rooms.has(room), `${room} is not in the graph`);
  const files = new Set(graph.map(({ from }) => from));
  for (const entry of exportsOf()) assert.ok(files.has(relative(".", entry)), entry);
  assert.ok(graph.length > 500, `${graph.length} imports`);
});

Deno.test("no adapter imports lib/notebook (progress reaches it through the default sink)", () => {
  assert.deepEqual(
    importsBetween((room) => ADAPTERS.includes(room), (room) => room === "lib/notebook"),
    [],
  );
});

Deno.test("lib/table, lib/paging and lib/dataset import nothing from lib/http", () => {
  const ground = ["lib/table", "lib/paging", "lib/dataset"];
  assert.deepEqual(
    importsBetween((room) => ground.includes(room), (room) => room === "lib/http"),
    [],
  );
});

Deno.test("no client folder imports lib/sandbox", () => {
  // The command line may: `tidepool sandbox` starts it to try the other commands offline, as the demo does.
  const mayStartIt = ["lib/sandbox", "lib/cli"];
  assert.deepEqual(
    importsBetween((room) => !mayStartIt.includes(room), (room) => room === "lib/sandbox"),
    [],
  );
});

Deno.test("every import goes down a floor", () => {
  assert.deepEqual(crossings(graph), []);
});

Deno.test("no files import each other in a circle (type-only imports count)", () => {
  assert.deepEqual(circles(graph), []);
});

Deno.test("the checks would catch a circle and a crossing", () => {
  const edges: Edge[] = [
    { from: "lib/ocean/a.ts", to: "lib/ocean/b.ts", line: 1 },
    { from: "lib/ocean/b.ts", to: "lib/ocean/a.ts", line: 2 },
    { from: "lib/ocean/b.ts", to: "lib/errors/errors.ts", line: 3 },
    { from: "lib/table/c.ts", to: "lib/http/client.ts", line: 4 },
    { from: "lib/ocean/d.ts", to: "lib/archive/e.ts", line: 5 },
    { from: "lib/ocean/f.ts", to: "lib/ocean/f.ts", line: 6 },
    { from: "lib/archive/g.ts", to: "lib/notebook/display.ts", line: 7 },
  ];
  assert.deepEqual(circles(edges), [["lib/ocean/a.ts", "lib/ocean/b.ts"], ["lib/ocean/f.ts"]]);
  assert.deepEqual(crossings(edges), [
    "lib/archive/g.ts:7 -> lib/notebook/display.ts",
    "lib/ocean/d.ts:5 -> lib/archive/e.ts",
    "lib/table/c.ts:4 -> lib/http/client.ts",
  ]);
});
