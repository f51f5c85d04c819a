/**
 * POST /{account}/{db}/api/import: bulk import from an Arquero table or
 * CSV text.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { type ArchiveContext, requireTarget, segment } from "./_context.ts";
import { toCsv } from "./_csv.ts";
import { sendWrite } from "./_write.ts";

/** What the import endpoint answered. */
export interface ImportResult {
  /** Resources created. */
  created: number;
  /** Resources updated (their slug existed). */
  updated: number;
  /** Rows the server refused, by CSV line number (the header is line 1). */
  errors: { row: number; error: string }[];
  /** The CSV bytes sent. */
  bytes: number;
}

/**
 * Checks a table for import: a `slug` column, no empty and no repeated
 * slugs; refusals name the rows (1 is the first data row).
 */
function checkTable(table: ColumnTable): void {
  const columns = table.columnNames();
  if (!columns.includes("slug")) {
    throw new TidepoolError("Cannot import: the table has no slug column", {
      details: `Columns: ${columns.join(", ")}`,
      hint: "Add a slug column with one unique slug per row (e.g. table.derive({ slug: ... }))",
    });
  }
  const slugs = table.array("slug") as unknown[];
  const rows = new Map<string, number[]>();
  const empty: number[] = [];
  slugs.forEach((slug, i) => {
    if (slug === null || slug === undefined || String(slug) === "") empty.push(i + 1);
    else rows.set(String(slug), [...(rows.get(String(slug)) ?? []), i + 1]);
  });
  if (empty.length) {
    throw new TidepoolError(
      `Cannot import: rows without a slug: ${empty.slice(0, 20).join(", ")}`,
      {
        hint: "Give every row a slug",
      },
    );
  }
  const repeated = [...rows].filter(([, at]) => at.length > 1);
  if (repeated.length) {
    const list = repeated.slice(0, 10).map(([slug, at]) => `${slug} (rows ${at.join(", ")})`);
    throw new TidepoolError(`Cannot import: duplicate slugs: ${list.join("; ")}`, {
      hint: "Slugs are unique per database; make them unique before importing",
    });
  }
}

/** The body of {@linkcode Archive.importCsv}, on the archive's shared state; documented there. */
export async function importCsv(
  context: ArchiveContext,
  tableOrCsv: ColumnTable | string,
): Promise<ImportResult> {
  const { account, db } = requireTarget(context, "importCsv");
  let csv: string;
  if (typeof tableOrCsv === "string") {
    csv = tableOrCsv;
  } else {
    checkTable(tableOrCsv);
    const columns = tableOrCsv.columnNames();
    const arrays = columns.map((c) => tableOrCsv.array(c) as unknown[]);
    const rows = Array.from({ length: tableOrCsv.numRows() }, (_, i) => arrays.map((a) => a[i]));
    csv = toCsv(columns, rows);
  }
  const body = new TextEncoder().encode(csv);
  const response = await sendWrite(context, {
    method: "POST",
    path: `/${segment(account)}/${segment(db)}/api/import`,
    body,
    headers: { "content-type": "text/csv; charset=utf-8" },
  }, {
    action: `import ${body.length} bytes of CSV into ${account}/${db}`,
    account,
    size: body.length,
  });
  const answer = response.json<Omit<ImportResult, "bytes">>();
  if (answer.errors?.length) {
    context.http.warn(
      `The import refused ${answer.errors.length} rows: ${
        answer.errors.slice(0, 5).map((e) => `row ${e.row}: ${e.error}`).join("; ")
      }`,
    );
  }
  return {
    created: answer.created,
    updated: answer.updated,
    errors: answer.errors ?? [],
    bytes: body.length,
  };
}
