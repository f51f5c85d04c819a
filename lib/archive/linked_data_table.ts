/**
 * A resource's linked data as a triples table, whatever the format.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { StrictOption } from "../http/unknown_shape.ts";
import type { ArchiveContext } from "./_context.ts";
import { parseRdf, triplesTable } from "../sparql/_triples.ts";
import { fetchLinkedData, type LinkedDataFormat } from "./linked_data.ts";

/** The body of {@linkcode Archive.linkedDataTable}, on the archive's shared state; documented there. */
export async function linkedDataTable(
  context: ArchiveContext,
  id: string,
  format: LinkedDataFormat = "jsonld",
  options: StrictOption = {},
): Promise<ColumnTable> {
  const response = await fetchLinkedData(context, id, format);
  const turtle = format === "ttl" || format === "rico-ttl";
  const contentType = turtle ? "text/turtle" : "application/ld+json";
  return triplesTable(
    await parseRdf(response.text(), contentType, response.url, {
      http: context.http,
      strict: options.strict,
    }),
  );
}
