/**
 * Builds the GraphQL documents of paged queries. Only names enter the
 * document, each checked against the GraphQL name grammar; every value
 * (filters, cursors, the block) travels in `variables`, so nothing a caller
 * passes is ever concatenated into the query text.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** A selection step with an optional page size for nested lists: `reuses(first: 1000)`. */
const STEP = /^([_A-Za-z][_0-9A-Za-z]*)(?:\(first: ?(\d{1,4})\))?$/;

/** Throws unless `name` is a GraphQL name. */
export function checkName(name: string, what: string): string {
  if (!NAME.test(name)) {
    throw new TidepoolError(`Invalid GraphQL ${what}: ${JSON.stringify(name)}`, {
      hint: "Use letters, digits and underscores only, not starting with a digit",
    });
  }
  return name;
}

/** One dotted field path split into checked steps; `first` is kept for nested lists. */
export function parsePath(path: string): { name: string; first?: number }[] {
  return path.split(".").map((step) => {
    const match = STEP.exec(step.trim());
    if (!match) {
      throw new TidepoolError(`Invalid field path: ${JSON.stringify(path)}`, {
        hint: 'Give dotted GraphQL field names such as "consumer.id" or "reuses(first: 1000).id"',
      });
    }
    return { name: match[1], first: match[2] === undefined ? undefined : Number(match[2]) };
  });
}

/** The column name of a field path: the path without list arguments. */
export function columnName(path: string): string {
  return parsePath(path).map((step) => step.name).join(".");
}

interface Node {
  first?: number;
  children: Map<string, Node>;
}

/** Renders field paths as one selection set: `id consumer { id } datatoken { id symbol }`. */
export function selectionSet(paths: readonly string[]): string {
  const root: Node = { children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const step of parsePath(path)) {
      let child = node.children.get(step.name);
      if (!child) {
        child = { children: new Map() };
        node.children.set(step.name, child);
      }
      if (step.first !== undefined) child.first = step.first;
      node = child;
    }
  }
  const render = (node: Node): string =>
    [...node.children].map(([name, child]) => {
      const args = child.first === undefined ? "" : `(first: ${child.first})`;
      return child.children.size ? `${name}${args} { ${render(child)} }` : `${name}${args}`;
    }).join(" ");
  return render(root);
}

/** What a paged query needs to render. */
export interface PageDocumentOptions {
  /** The collection field, `orders`. */
  entity: string;
  /** The entity type name, `Order` (for the filter and orderBy variable types). */
  typeName: string;
  /** The selection set, already rendered. */
  selection: string;
  /** Whether the page is pinned to a block (a `$block` variable). */
  pinned: boolean;
  /** Whether `_meta` is asked for beside the rows. */
  withMeta: boolean;
}

/** The selection of `_meta` used for the staleness check. */
export const META_SELECTION = "block { number hash timestamp } hasIndexingErrors deployment";

/** Renders the document of one page; every value is a variable. */
export function pageDocument(options: PageDocumentOptions): string {
  const entity = checkName(options.entity, "entity name");
  const type = checkName(options.typeName, "type name");
  const blockVar = options.pinned ? ", $block: Block_height" : "";
  const blockArg = options.pinned ? ", block: $block" : "";
  // _meta without a block argument: the staleness check wants the head the
  // subgraph has indexed, whatever block the rows are pinned to.
  const meta = options.withMeta ? ` _meta { ${META_SELECTION} }` : "";
  return `query tidepoolPage($first: Int!, $where: ${type}_filter, $orderBy: ${type}_orderBy, ` +
    `$orderDirection: OrderDirection${blockVar}) { rows: ${entity}(first: $first, where: $where, ` +
    `orderBy: $orderBy, orderDirection: $orderDirection${blockArg}) { ${options.selection} }${meta} }`;
}

/**
 * The entity type of a collection field by The Graph's naming rule:
 * `orders` → `Order`, `nftUpdates` → `NftUpdate`, `globalStatistics` →
 * `GlobalStatistic`, `factories` → `Factory`. Irregular names need the
 * `typeName` option.
 */
export function typeNameOf(entity: string): string {
  const singular = entity.endsWith("ies")
    ? `${entity.slice(0, -3)}y`
    : entity.endsWith("sses")
    ? entity.slice(0, -2)
    : entity.endsWith("s")
    ? entity.slice(0, -1)
    : entity;
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}
