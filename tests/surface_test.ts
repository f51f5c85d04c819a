/**
 * The public surface, read as `deno doc --json` reads it (mod.ts and every
 * other export in deno.json): every exported function, class method,
 * constructor and interface method takes at most two positional arguments
 * before its final parameters object (docs/ARCHITECTURE.md, "One call
 * shape"). An offender fails here, named with its file and line.
 */

import assert from "node:assert/strict";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** A parameter as `deno doc --json` describes it. */
interface DocParam {
  kind: string;
  name?: string;
  tsType?: DocType;
  arg?: DocParam;
  left?: DocParam;
}

/** A type as `deno doc --json` describes it; only the parts this test reads. */
interface DocType {
  kind: string;
  repr?: string;
  value?: unknown;
}

/** A node of `deno doc --json`; only the parts this test reads. */
interface DocNode {
  name: string;
  kind: string;
  location?: { filename: string; line: number };
  declarations?: DocNode[];
  def?: {
    params?: DocParam[];
    methods?: {
      name: string;
      params?: DocParam[];
      accessibility?: string;
      location?: { filename: string; line: number };
      functionDef?: { params?: DocParam[] };
    }[];
    constructors?: {
      params?: DocParam[];
      accessibility?: string;
      location?: { filename: string; line: number };
    }[];
    callSignatures?: { params?: DocParam[]; location?: { filename: string; line: number } }[];
    elements?: DocNode[];
  };
  functionDef?: { params?: DocParam[] };
}

/** The entry points of the package: every value of deno.json "exports". */
async function entryPoints(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(resolve(ROOT, "deno.json"))) as {
    exports: Record<string, string>;
  };
  return [...new Set(Object.values(config.exports))];
}

/** `deno doc --json` of the entry points, one node list per file. */
async function docNodes(roots: string[]): Promise<DocNode[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...roots],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const parsed = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: DocNode[] }>;
  };
  return Object.values(parsed.nodes).flatMap((module) => module.symbols);
}

/** Type names that mark a final parameter as a parameters object. */
const PARAMETERS_TYPE =
  /(Options?|Parameters|Params|Init|Request|Input|Changes|Settings|Config|Args)$/;

/** Whether a parameter, as written, is an object of named parameters. */
function isParametersObject(param: DocParam): boolean {
  const inner = param.kind === "assign" && param.left ? param.left : param;
  if (inner.kind === "object") return true;
  const type = inner.tsType;
  if (type === undefined) return /^(options|parameters|params|init)$/.test(inner.name ?? "");
  if (type.kind === "typeLiteral") return true;
  if (type.kind === "typeRef") return PARAMETERS_TYPE.test(type.repr ?? "");
  if (type.kind === "intersection" || type.kind === "union") {
    const parts = (type.value as DocType[] | undefined) ?? [];
    return parts.some((part) =>
      part.kind === "typeLiteral" ||
      (part.kind === "typeRef" && PARAMETERS_TYPE.test(part.repr ?? ""))
    );
  }
  return /^(options|parameters|params|init)$/.test(inner.name ?? "");
}

/** How many positional parameters come before the parameters object. */
export function positionalCount(params: readonly DocParam[]): number {
  if (params.length === 0) return 0;
  const last = params[params.length - 1];
  if (last.kind !== "rest" && isParametersObject(last)) return params.length - 1;
  return params.length;
}

/** The name of a parameter for a message. */
function paramName(param: DocParam): string {
  if (param.kind === "rest") return `...${param.arg?.name ?? "rest"}`;
  if (param.kind === "assign") return param.left?.name ?? "param";
  return param.name ?? param.kind;
}

/** One callable of the surface that breaks the rule, for a message. */
interface Offender {
  where: string;
  name: string;
  params: string;
}

/** Where a location is, relative to the repository. */
function where(location: { filename: string; line: number } | undefined): string {
  if (location === undefined) return "?";
  const path = location.filename.startsWith("file://")
    ? relative(ROOT, fileURLToPath(location.filename))
    : location.filename;
  return `${path}:${location.line}`;
}

/** Every callable of the surface with more than two positional parameters. */
export function offenders(symbols: readonly DocNode[]): Offender[] {
  const found = new Map<string, Offender>();
  const prefix = pathToFileURL(ROOT).href + "/";
  const check = (
    name: string,
    params: readonly DocParam[] | undefined,
    location: { filename: string; line: number } | undefined,
  ) => {
    if (params === undefined || positionalCount(params) <= 2) return;
    if (location !== undefined && !location.filename.startsWith(prefix)) return;
    const offender = { where: where(location), name, params: params.map(paramName).join(", ") };
    found.set(`${offender.where} ${name}`, offender);
  };
  for (const symbol of symbols) {
    for (const node of symbol.declarations ?? [symbol]) {
      const location = node.location;
      if (node.kind === "function") {
        check(symbol.name, node.def?.params ?? node.functionDef?.params, location);
      } else if (node.kind === "class") {
        for (const ctor of node.def?.constructors ?? []) {
          if (ctor.accessibility === "private") continue;
          check(`new ${symbol.name}`, ctor.params, ctor.location ?? location);
        }
        for (const method of node.def?.methods ?? []) {
          if (method.accessibility === "private" || method.accessibility === "protected") continue;
          check(
            `${symbol.name}.${method.name}`,
            method.functionDef?.params ?? method.params,
            method.location ?? location,
          );
        }
      } else if (node.kind === "interface") {
        for (const method of node.def?.methods ?? []) {
          check(`${symbol.name}.${method.name}`, method.params, method.location ?? location);
        }
        for (const signature of node.def?.callSignatures ?? []) {
          check(`${symbol.name}()`, signature.params, signature.location ?? location);
        }
      }
    }
  }
  return [...found.values()].sort((a, b) => a.where.localeCompare(b.where));
}

Deno.test("no public function or method takes more than two positional arguments before its parameters object", async () => {
  const symbols = await docNodes(await entryPoints());
  assert.ok(symbols.length > 100, `deno doc found only ${symbols.length} symbols`);
  const bad = offenders(symbols);
  assert.deepEqual(
    bad.map((offender) => `${offender.where} ${offender.name}(${offender.params})`),
    [],
    "these take more than two positional arguments; take (a, b, parameters) instead",
  );
});

Deno.test("the call-shape check names a four-positional function and passes a (client, parameters) one", () => {
  const location = { filename: pathToFileURL(resolve(ROOT, "lib/x.ts")).href, line: 3 };
  const param = (name: string, repr: string): DocParam => ({
    kind: "identifier",
    name,
    tsType: { kind: "typeRef", repr },
  });
  const symbols: DocNode[] = [
    {
      name: "orderThing",
      kind: "function",
      location,
      def: {
        params: [
          param("node", "Node"),
          param("did", "string"),
          param("id", "string"),
          param("signer", "Signer"),
          param("options", "OrderOptions"),
        ],
      },
    },
    {
      name: "fine",
      kind: "function",
      location,
      def: { params: [param("client", "Client"), param("parameters", "FineParameters")] },
    },
    {
      name: "twoThenOptions",
      kind: "function",
      location,
      def: { params: [param("a", "A"), param("b", "string"), param("options", "XOptions")] },
    },
    {
      name: "threeNoOptions",
      kind: "function",
      location,
      def: { params: [param("a", "A"), param("b", "string"), param("c", "number")] },
    },
  ];
  assert.deepEqual(offenders(symbols).map((offender) => offender.name), [
    "orderThing",
    "threeNoOptions",
  ]);
});

/** Every `ts ignore` fence of lib/ without a reason in parentheses after it, as `file:line`. */
export async function ignoredWithoutReason(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await ignoredWithoutReason(path));
    else if (entry.name.endsWith(".ts")) {
      const lines = (await Deno.readTextFile(path)).split("\n");
      lines.forEach((line, index) => {
        if (
          /```(ts|typescript|js|javascript)\s+ignore\b/.test(line) && !IGNORE_WITH_REASON.test(line)
        ) {
          found.push(`${relative(ROOT, path)}:${index + 1}`);
        }
      });
    }
  }
  return found.sort();
}

/** A fence that says why it cannot run: ```ts ignore (needs a funded wallet on a real chain) */
const IGNORE_WITH_REASON = /```(ts|typescript|js|javascript)\s+ignore\s+\([^)]{8,}\)\s*$/;

Deno.test("every example fenced `ts ignore` in lib/ says why on its fence line", async () => {
  assert.deepEqual(
    await ignoredWithoutReason(resolve(ROOT, "lib")),
    [],
    "make these examples run (start the sandbox they need), or say why they cannot: ```ts ignore (needs a real key)",
  );
});

Deno.test("the ignore check names a fence without a reason and passes one with a reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.ts`,
      "/**\n * ```ts ignore\n * x;\n * ```\n * ```ts ignore (needs a real chain)\n * y;\n * ```\n */\n",
    );
    const found = await ignoredWithoutReason(dir);
    assert.equal(found.length, 1);
    assert.match(found[0], /a\.ts:2$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
