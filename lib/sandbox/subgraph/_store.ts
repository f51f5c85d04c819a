/**
 * The rows of the sandbox subgraph and the collection query over them,
 * with The Graph's rules: `first` 0 to 1,000 (default 100), `skip` 0 to
 * 5,000, `where` with equality, `_not`, `_gt`, `_gte`, `_lt`, `_lte`, `_in`,
 * `_not_in`, nested `<ref>_` filters, `and`/`or`, one `orderBy` with ties in
 * id order, and `block` pinning (rows created after the block are
 * invisible). Each orderBy field has one pre-sorted index; range bounds on
 * that field are found by binary search, so a cursor page over 100,000 rows
 * costs a search and a short scan.
 *
 * @module
 */

import { ENTITY_BY_TYPE, type EntityDef, type FieldDef } from "./_entities.ts";

/** One stored row; references hold the referenced row, lists hold rows. */
export type Row = Record<string, unknown> & { id: string; block?: number };

/** A GraphQL-facing error with The Graph's wording. */
export class QueryError extends Error {}

type Compare = (a: unknown, b: unknown) => number;

function compareFor(field: FieldDef | undefined): Compare {
  const type = field && "scalar" in field ? field.scalar : "String";
  if (type === "Int") return (a, b) => (a as number) - (b as number);
  if (type === "BigInt") {
    return (a, b) => {
      const x = BigInt(a as string);
      const y = BigInt(b as string);
      return x < y ? -1 : x > y ? 1 : 0;
    };
  }
  if (type === "BigDecimal") return (a, b) => Number(a) - Number(b);
  if (type === "Boolean") return (a, b) => Number(a) - Number(b);
  return (a, b) => {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/** The value of a field used for filters and sorting: a reference compares by id. */
function key(row: Row, field: FieldDef): unknown {
  const value = row[field.name];
  if ("ref" in field) return value === null || value === undefined ? null : (value as Row).id;
  return value;
}

const OPS = ["_not_in", "_not", "_gte", "_gt", "_lte", "_lt", "_in", "_"] as const;
type Op = typeof OPS[number] | "";

function splitKey(entity: EntityDef, name: string): { field: FieldDef; op: Op } {
  const exact = entity.fields.find((f) => f.name === name);
  if (exact) return { field: exact, op: "" };
  for (const op of OPS) {
    if (!name.endsWith(op)) continue;
    const field = entity.fields.find((f) => f.name === name.slice(0, -op.length));
    if (field) return { field, op };
  }
  throw new QueryError(`Type \`${entity.type}_filter\` has no field \`${name}\``);
}

/** Compiles a where filter into a predicate. */
export function compileWhere(entity: EntityDef, where: Record<string, unknown> | null | undefined) {
  const tests: ((row: Row) => boolean)[] = [];
  for (const [name, value] of Object.entries(where ?? {})) {
    if (value === undefined) continue;
    if (name === "and" || name === "or") {
      const parts = (value as Record<string, unknown>[]).map((w) => compileWhere(entity, w));
      tests.push(
        name === "and" ? (row) => parts.every((p) => p(row)) : (row) => parts.some((p) => p(row)),
      );
      continue;
    }
    const { field, op } = splitKey(entity, name);
    if (op === "_") {
      const target = ENTITY_BY_TYPE.get((field as { ref: string }).ref)!;
      const inner = compileWhere(target, value as Record<string, unknown>);
      tests.push((row) => {
        const ref = row[field.name] as Row | null | undefined;
        return !!ref && inner(ref);
      });
      continue;
    }
    const cmp = compareFor(field);
    const get = (row: Row) => key(row, field);
    switch (op) {
      case "":
        tests.push((row) =>
          value === null ? get(row) == null : get(row) != null && cmp(get(row), value) === 0
        );
        break;
      case "_not":
        tests.push((row) =>
          value === null ? get(row) != null : get(row) == null || cmp(get(row), value) !== 0
        );
        break;
      case "_gt":
        tests.push((row) => get(row) != null && cmp(get(row), value) > 0);
        break;
      case "_gte":
        tests.push((row) => get(row) != null && cmp(get(row), value) >= 0);
        break;
      case "_lt":
        tests.push((row) => get(row) != null && cmp(get(row), value) < 0);
        break;
      case "_lte":
        tests.push((row) => get(row) != null && cmp(get(row), value) <= 0);
        break;
      case "_in":
      case "_not_in": {
        const set = new Set((value as unknown[]).map(String));
        const want = op === "_in";
        tests.push((row) => {
          const v = get(row);
          return v != null && set.has(String(v)) === want;
        });
        break;
      }
    }
  }
  return (row: Row) => tests.every((test) => test(row));
}

/** Arguments of a collection query, after GraphQL coercion. */
export interface CollectionArgs {
  first?: number;
  skip?: number;
  orderBy?: string | null;
  orderDirection?: "asc" | "desc" | null;
  where?: Record<string, unknown> | null;
}

/** The rows of every entity, with sorted indexes made on first use. */
export class Store {
  readonly rows: Map<string, Row[]>;
  readonly #byId = new Map<string, Map<string, Row>>();
  readonly #sorted = new Map<string, Row[]>();

  /** @param rows Rows by entity type name. */
  constructor(rows: Record<string, Row[]>) {
    this.rows = new Map(Object.entries(rows));
  }

  /** One row by id, if visible at the block. */
  get(type: string, id: string, block: number): Row | null {
    let index = this.#byId.get(type);
    if (!index) {
      index = new Map((this.rows.get(type) ?? []).map((row) => [row.id, row]));
      this.#byId.set(type, index);
    }
    const row = index.get(id);
    return row && (row.block ?? 0) <= block ? row : null;
  }

  #index(entity: EntityDef, field: FieldDef): Row[] {
    const name = `${entity.type}.${field.name}`;
    let sorted = this.#sorted.get(name);
    if (!sorted) {
      const cmp = compareFor(field);
      sorted = [...(this.rows.get(entity.type) ?? [])].sort((a, b) => {
        const x = key(a, field);
        const y = key(b, field);
        if (x == null || y == null) {
          if (x == null && y != null) return 1;
          if (y == null && x != null) return -1;
        } else {
          const c = cmp(x, y);
          if (c !== 0) return c;
        }
        return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      });
      this.#sorted.set(name, sorted);
    }
    return sorted;
  }

  /** A collection query as graph-node answers it. */
  query(type: string, args: CollectionArgs, block: number): Row[] {
    const entity = ENTITY_BY_TYPE.get(type)!;
    const first = args.first ?? 100;
    const skip = args.skip ?? 0;
    if (first < 0 || first > 1000) {
      throw new QueryError(`The \`first\` argument must be between 0 and 1000, but is ${first}`);
    }
    if (skip < 0 || skip > 5000) {
      throw new QueryError(`The \`skip\` argument must be between 0 and 5000, but is ${skip}`);
    }
    const fieldName = args.orderBy ?? "id";
    const field = entity.fields.find((f) => f.name === fieldName)!;
    const sorted = this.#index(entity, field);
    const where = args.where ?? {};
    const matches = compileWhere(entity, where);
    // Narrow the scan to the range the bounds on the sort field allow.
    const cmp = compareFor(field);
    let lo = 0;
    let hi = sorted.length;
    const at = (i: number) => key(sorted[i], field);
    const lowerBound = (value: unknown, strict: boolean) => {
      let a = 0;
      let b = sorted.length;
      while (a < b) {
        const m = (a + b) >> 1;
        const v = at(m);
        const c = v == null ? 1 : cmp(v, value);
        if (c < 0 || (strict && c === 0)) a = m + 1;
        else b = m;
      }
      return a;
    };
    const bound = (name: string) => where[`${fieldName}${name}`];
    if (bound("") != null) {
      lo = Math.max(lo, lowerBound(bound(""), false));
      hi = Math.min(hi, lowerBound(bound(""), true));
    }
    if (bound("_gt") != null) lo = Math.max(lo, lowerBound(bound("_gt"), true));
    if (bound("_gte") != null) lo = Math.max(lo, lowerBound(bound("_gte"), false));
    if (bound("_lt") != null) hi = Math.min(hi, lowerBound(bound("_lt"), false));
    if (bound("_lte") != null) hi = Math.min(hi, lowerBound(bound("_lte"), true));
    const out: Row[] = [];
    let skipped = 0;
    const take = (row: Row) => {
      if ((row.block ?? 0) > block || !matches(row)) return false;
      if (skipped < skip) {
        skipped++;
        return false;
      }
      out.push(row);
      return out.length >= first;
    };
    if (first === 0) return out;
    if (args.orderDirection === "desc") {
      for (let i = hi - 1; i >= lo; i--) if (take(sorted[i])) break;
    } else {
      for (let i = lo; i < hi; i++) if (take(sorted[i])) break;
    }
    return out;
  }
}
