/**
 * Compiles a schema into one function that appends a page of records to
 * the column arrays, column by column. Generated code keeps each loop
 * monomorphic (one property read, one inline type check) and fills
 * preallocated arrays, which is what
 * makes the builder keep pace with `aq.from` while still converting every
 * cell. Only property names and column indexes enter the generated source,
 * always through JSON.stringify, so no record value is ever evaluated.
 *
 * @module
 */

import { type ColumnType, type Converter, CONVERTERS } from "./convert.ts";
import type { ColumnSpec } from "./schema.ts";

/** Converts a page of records into one new array per schema column. */
export type PageAppender<R> = (records: readonly R[]) => unknown[][];

/** Inline checks that pass a value through when it already has its column's type. */
const FAST_PATH: Partial<Record<ColumnType, (v: string) => string>> = {
  string: (v) => `typeof ${v} === "string"`,
  number: (v) => `typeof ${v} === "number" && ${v} === ${v}`,
  integer: (v) => `typeof ${v} === "number" && Number.isInteger(${v})`,
  boolean: (v) => `typeof ${v} === "boolean"`,
  bigint: (v) => `typeof ${v} === "bigint"`,
  array: (v) => `Array.isArray(${v})`,
};

/** Builds the appender for a list of columns. */
export function compileAppender<R>(columns: readonly ColumnSpec<R>[]): PageAppender<R> {
  const getters: ((record: R) => unknown)[] = [];
  const converters: Converter[] = [];
  const body: string[] = ["const n = records.length; const columns = [];"];
  columns.forEach((column, c) => {
    converters.push(CONVERTERS[column.type]);
    let read: string;
    if (column.get) {
      getters[c] = column.get;
      read = `const v = getters[${c}](r);`;
    } else {
      const steps = (column.path ?? column.name).split(".");
      read = steps.length === 1 ? `const v = r[${JSON.stringify(steps[0])}];` : nestedRead(steps);
    }
    const fast = FAST_PATH[column.type];
    const value = fast ? `(${fast("v")}) ? v : convert${c}(v)` : `convert${c}(v)`;
    body.push(
      `{ const out = new Array(n); const convert${c} = converters[${c}];`,
      `  for (let i = 0; i < n; i++) { const r = records[i]; ${read} out[i] = ${value}; }`,
      `  columns.push(out); }`,
    );
  });
  const make = new Function(
    "getters",
    "converters",
    `return (records) => {\n${body.join("\n")}\nreturn columns;\n};`,
  );
  return make(getters, converters) as PageAppender<R>;
}

function nestedRead(steps: string[]): string {
  let code = "let v = r;";
  for (const step of steps) {
    code += ` v = v === null || typeof v !== "object" ? undefined : v[${JSON.stringify(step)}];`;
  }
  return code;
}
