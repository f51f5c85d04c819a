/**
 * A local GraphQL server that behaves like The Graph's graph-node for the
 * Ocean subgraph, on seeded data consistent with the sandbox Ocean node.
 *
 * @module
 */

import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLSchema,
  parse,
  validate,
} from "graphql";
import { buildSchema } from "graphql";
import { extendServer, type LocalServer, serveLocal } from "../_serve.ts";
import { ENTITIES, schemaText } from "./_entities.ts";
import { blockTime, HEAD_BLOCK, seedSubgraph, type SubgraphSeedOptions } from "./_seed.ts";
import { type CollectionArgs, QueryError, type Row, Store } from "./_store.ts";

/** Faults the sandbox can be switched into while it runs. */
export interface SubgraphFaults {
  /** Report this block as the indexed head (rows after it are invisible); e.g. below 11,459,549. */
  lagBlock?: number;
  /** Report `hasIndexingErrors: true` in `_meta`. */
  indexingErrors?: boolean;
  /** Answer every query with these GraphQL errors (HTTP 200) beside the data computed. */
  graphqlErrors?: string[];
}

/** Options of {@linkcode serveSubgraph}. */
export interface ServeSubgraphOptions extends SubgraphSeedOptions {
  /** The subgraph owner in the path; default `oceanprotocol`. */
  owner?: string;
  /** The subgraph name in the path; default `ocean-subgraph`. */
  name?: string;
  /** Faults to start with. */
  faults?: SubgraphFaults;
  /** Most requests the server answers (see `serveLocal`). */
  maxRequests?: number;
  /** The port to listen on when free, else an ephemeral one (see `serveLocal`). Default 0. */
  port?: number;
}

/** A running sandbox subgraph. */
export interface SandboxSubgraph extends LocalServer {
  /** The endpoint to give `new Subgraph(...)`: `<url>/subgraphs/name/<owner>/<name>`. */
  readonly endpoint: string;
  /** The seeded rows by entity type (`Order`, `Token`, ...), for comparisons in tests. */
  readonly rows: ReadonlyMap<string, readonly Row[]>;
  /** The head block it reports without faults. */
  readonly headBlock: number;
  /** Fault switches; change them at any time. */
  readonly faults: SubgraphFaults;
  /** GraphQL requests answered, by the first field they asked for. */
  readonly queries: Map<string, number>;
}

const DEPLOYMENT = "QmSandboxOceanSubgraph4tidepoo1Seeded000000000000";

/**
 * Starts the sandbox subgraph on 127.0.0.1 with an ephemeral port.
 *
 * @param options Seed sizes, path, faults and request bound.
 * @returns The running server; close it when done.
 *
 * @example Reading the order count
 * ```ts
 * import { Subgraph } from "../../subgraph/subgraph.ts";
 * const sandbox = serveSubgraph();
 * try {
 *   const sg = new Subgraph(sandbox.endpoint, { progress: false });
 *   console.log((await sg.globalStatistics()).get("orderCount", 0));
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export function serveSubgraph(options: ServeSubgraphOptions = {}): SandboxSubgraph {
  const store = new Store(seedSubgraph(options));
  const schema = makeSchema(store);
  const faults: SubgraphFaults = { ...options.faults };
  const path = `/subgraphs/name/${options.owner ?? "oceanprotocol"}/${
    options.name ?? "ocean-subgraph"
  }`;
  const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
  const queries = new Map<string, number>();

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.replace(/\/$/, "") !== path) {
      return new Response(`Subgraph not found: ${url.pathname}`, { status: 404 });
    }
    if (request.method !== "POST") {
      return new Response("Use POST with a JSON GraphQL request", { status: 405 });
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = await request.json();
    } catch {
      return json({ errors: [{ message: "The request body is not valid JSON" }] }, 400);
    }
    if (typeof body?.query !== "string") {
      return json({ errors: [{ message: "The query is missing" }] }, 400);
    }
    let document = documents.get(body.query);
    if (!document) {
      try {
        const parsed = parse(body.query);
        const errors = validate(schema, parsed);
        document = errors.length ? errors : parsed;
      } catch (error) {
        document = [error as GraphQLError];
      }
      if (documents.size > 500) documents.clear();
      documents.set(body.query, document);
    }
    if (Array.isArray(document)) {
      return json({ errors: document.map((e) => ({ message: e.message })) });
    }
    const head = faults.lagBlock ?? HEAD_BLOCK;
    const result = await execute({
      schema,
      document: document as DocumentNode,
      variableValues: (body.variables ?? {}) as Record<string, unknown>,
      operationName: typeof body.operationName === "string" ? body.operationName : undefined,
      contextValue: { head, faults },
    }) as ExecutionResult;
    const first = firstField(document as DocumentNode);
    queries.set(first, (queries.get(first) ?? 0) + 1);
    const errors = [
      ...(result.errors ?? []).map((e) => ({ message: e.message })),
      ...(faults.graphqlErrors ?? []).map((message) => ({ message })),
    ];
    return json(errors.length ? { data: result.data ?? null, errors } : { data: result.data });
  };

  const server = serveLocal(handler, { maxRequests: options.maxRequests, port: options.port });
  return extendServer(server, {
    endpoint: `${server.url}${path}`,
    rows: store.rows,
    headBlock: HEAD_BLOCK,
    faults,
    queries,
  });
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });
}

function firstField(document: DocumentNode): string {
  for (const definition of document.definitions) {
    if (definition.kind === "OperationDefinition") {
      const selection = definition.selectionSet.selections[0];
      if (selection?.kind === "Field") return selection.name.value;
    }
  }
  return "?";
}

/** Field configs whose resolvers are set after the schema is built from text. */
type Resolvable = Record<
  string,
  { resolve?: (parent: Row, args: Record<string, unknown>, context: Context) => unknown }
>;

interface Context {
  head: number;
  faults: SubgraphFaults;
}

/** The block a query reads at: the head, or the pinned block when it is indexed. */
function readBlock(
  arg: { number?: number | null; number_gte?: number | null } | null | undefined,
  head: number,
) {
  const wanted = arg?.number ?? null;
  if (wanted !== null && wanted > head) {
    throw new QueryError(
      `Failed to decode \`block.number\` value: \`subgraph ${DEPLOYMENT} has only indexed up to ` +
        `block number ${head} and data for block number ${wanted} is therefore not yet available\``,
    );
  }
  if (arg?.number_gte != null && arg.number_gte > head) {
    throw new QueryError(
      `subgraph ${DEPLOYMENT} has only indexed up to block number ${head} and data for block ` +
        `number ${arg.number_gte} is therefore not yet available`,
    );
  }
  return wanted ?? head;
}

function makeSchema(store: Store): GraphQLSchema {
  const schema = buildSchema(schemaText());
  const query = schema.getQueryType()!;
  const fields = query.getFields() as unknown as Resolvable;
  fields._meta.resolve = (_root, _args, context) => ({
    block: {
      number: context.head,
      hash: `0x${context.head.toString(16).padStart(64, "0")}`,
      timestamp: blockTime(context.head),
    },
    deployment: DEPLOYMENT,
    hasIndexingErrors: context.faults.indexingErrors === true,
  });
  for (const entity of ENTITIES) {
    fields[entity.collection].resolve = (_root, args, context) =>
      store.query(
        entity.type,
        args as CollectionArgs,
        readBlock((args as { block?: { number?: number } }).block, context.head),
      );
    fields[entity.single].resolve = (_root, args, context) =>
      store.get(
        entity.type,
        String((args as { id: string }).id),
        readBlock((args as { block?: { number?: number } }).block, context.head),
      );
    // Nested lists take first/skip like graph-node (default 100, at most 1,000).
    const type = schema.getType(entity.type) as GraphQLObjectType;
    const typeFields = type.getFields() as unknown as Resolvable;
    for (const field of entity.fields) {
      if (!("list" in field)) continue;
      typeFields[field.name].resolve = (parent, args) => {
        const { first = 100, skip = 0 } = args as { first?: number; skip?: number };
        if (first < 0 || first > 1000) {
          throw new QueryError(
            `The \`first\` argument must be between 0 and 1000, but is ${first}`,
          );
        }
        return ((parent[field.name] ?? []) as Row[]).slice(skip, skip + first);
      };
    }
  }
  return schema;
}
