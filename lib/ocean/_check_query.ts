/**
 * Checks a metadata query body against what the node actually does with it
 * (spec section 4, query body rules). The node passes a Typesense-style body
 * (one with `filter_by`) to the search engine as is, but translates only a few
 * parts of an Elasticsearch-style body and silently drops the rest, which
 * would give a silently wrong answer. Those parts are refused here.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

const TOP_LEVEL = new Set(["from", "size", "sort", "query"]);

/** The kind of body after the check. */
export type QueryForm = "typesense" | "elasticsearch";

/**
 * Returns the form of the body, or throws listing every part the node would
 * ignore.
 */
export function checkQueryBody(body: unknown): QueryForm {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new TidepoolError("Invalid metadata query: the body must be an object", {
      hint:
        'Give an Elasticsearch-style body ({ query: { bool: { filter: [...] } } }) or a Typesense-style body ({ filter_by: "..." })',
    });
  }
  const record = body as Record<string, unknown>;
  if ("filter_by" in record) {
    if (typeof record.filter_by !== "string") {
      throw new TidepoolError("Invalid metadata query: filter_by must be a string", {
        hint:
          'Use an empty string for no filter, or an expression such as "metadata.type:=dataset"',
      });
    }
    return "typesense";
  }
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (!TOP_LEVEL.has(key)) problems.push(`${key}`);
  }
  for (const key of ["from", "size"]) {
    const value = record[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0)) {
      problems.push(`${key} (must be a non-negative integer)`);
    }
  }
  if (record.sort !== undefined) checkSort(record.sort, problems);
  if (record.query !== undefined) checkQuery(record.query, problems);
  if (problems.length > 0) {
    throw new TidepoolError(
      `Cannot send the metadata query: the node would silently ignore ${
        problems.length === 1 ? "this part" : "these parts"
      }: ${problems.join(", ")}`,
      {
        hint:
          "The node translates only from, size, sort and term/terms filters inside query.bool.filter " +
          "and query.bool.must_not, with the index field names (metadata.type, not metadata.type.keyword). " +
          "Rewrite the query with those, or send a Typesense-style body with filter_by",
      },
    );
  }
  return "elasticsearch";
}

function checkSort(sort: unknown, problems: string[]) {
  if (sort === null || typeof sort !== "object" || Array.isArray(sort)) {
    problems.push("sort (must be an object of field to asc or desc)");
    return;
  }
  for (const [field, order] of Object.entries(sort)) {
    checkField(field, `sort.${field}`, problems);
    if (order !== "asc" && order !== "desc") problems.push(`sort.${field} (must be asc or desc)`);
  }
}

function checkQuery(query: unknown, problems: string[]) {
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    problems.push("query (must be an object with bool)");
    return;
  }
  for (const key of Object.keys(query)) {
    if (key !== "bool") problems.push(`query.${key}`);
  }
  const bool = (query as Record<string, unknown>).bool;
  if (bool === undefined) return;
  if (bool === null || typeof bool !== "object" || Array.isArray(bool)) {
    problems.push("query.bool (must be an object)");
    return;
  }
  for (const [key, filters] of Object.entries(bool)) {
    if (key !== "filter" && key !== "must_not") {
      problems.push(`query.bool.${key}`);
      continue;
    }
    if (!Array.isArray(filters)) {
      problems.push(`query.bool.${key} (must be an array of term or terms filters)`);
      continue;
    }
    filters.forEach((filter, i) => checkFilter(filter, `query.bool.${key}[${i}]`, problems));
  }
}

function checkFilter(filter: unknown, where: string, problems: string[]) {
  if (filter === null || typeof filter !== "object" || Array.isArray(filter)) {
    problems.push(`${where} (must be a term or terms filter)`);
    return;
  }
  const keys = Object.keys(filter);
  const kind = keys[0];
  if (keys.length !== 1 || (kind !== "term" && kind !== "terms")) {
    problems.push(`${where}.${keys.join("+") || "{}"} (only term or terms is translated)`);
    return;
  }
  const inner = (filter as Record<string, unknown>)[kind];
  if (inner === null || typeof inner !== "object" || Array.isArray(inner)) {
    problems.push(`${where}.${kind} (must hold one field)`);
    return;
  }
  const fields = Object.entries(inner);
  if (fields.length !== 1) {
    problems.push(`${where}.${kind} (must hold exactly one field, has ${fields.length})`);
    return;
  }
  const [field, value] = fields[0];
  checkField(field, `${where}.${kind}.${field}`, problems);
  const scalar = (v: unknown) => ["string", "number", "boolean"].includes(typeof v);
  if (kind === "term" && !scalar(value)) {
    problems.push(
      `${where}.term.${field} (must be a string, number or boolean; options objects are not translated)`,
    );
  }
  if (kind === "terms" && (!Array.isArray(value) || !value.every(scalar))) {
    problems.push(`${where}.terms.${field} (must be an array of strings, numbers or booleans)`);
  }
}

function checkField(field: string, where: string, problems: string[]) {
  if (field.endsWith(".keyword")) {
    problems.push(
      `${where} (.keyword field names do not exist in the index; use ${field.slice(0, -8)})`,
    );
  }
}
