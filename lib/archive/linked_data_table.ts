/**
 * A resource's linked data as a triples table, whatever the format.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { StrictOption } from "../http/unknown_shape.ts";
import type { ArchiveContext } from "./_context.ts";
import { parseRdf, triplesTable } from "./_triples.ts";
import { fetchLinkedData, type LinkedDataFormat } from "./linked_data.ts";

/**
 * Fetches a resource as linked data and parses it into triples: Turtle with
 * the `n3` parser, JSON-LD with jsonld.js (remote contexts such as
 * `https://schema.org` are read: well-known ones offline, others fetched
 * through the client). The same export in JSON-LD and Turtle gives the same triples.
 *
 * @param context The archive's shared state.
 * @param id The slug or UUID.
 * @param format The export format; default `jsonld`.
 * @param options `strict`: refuse JSON-LD that would lose data (a property
 *   mapping to no IRI, an invalid language tag) instead of dropping it.
 * @returns The triples table `subject, predicate, object, objectType, datatype, lang`.
 *
 * @example The properties of a map
 * ```ts ignore
 * const triples = await archive.linkedDataTable("map-0003", "ttl");
 * console.log(triples.objects());
 * ```
 */
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
