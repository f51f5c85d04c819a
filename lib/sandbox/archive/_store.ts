/**
 * The SPARQL store of the sandbox: a real oxigraph `Store` holding the
 * public resources of public sites with `rdf` enabled, one named graph per
 * site (schema.org profile, as an anonymous caller sees them).
 *
 * @module
 */

import oxigraph from "oxigraph";
import { toNQuads } from "./_linked_data.ts";
import { graphUri, triplesFor } from "./_mapping.ts";
import type { ArchiveState } from "./_state.ts";
import type { SeedDatabase } from "./seed.ts";

/** Builds the store and returns the query function of the state. */
export function buildStore(
  state: ArchiveState,
): (query: string, format: string, db: SeedDatabase) => string | boolean {
  const store = new oxigraph.Store();
  const graphs: oxigraph.NamedNode[] = [];
  const graphOf = new Map<SeedDatabase, oxigraph.NamedNode>();
  for (const index of state.databases.values()) {
    if (!index.db.is_public || !index.db.settings.rdf) continue;
    const graph = graphUri(state, index);
    const node = oxigraph.namedNode(graph);
    graphs.push(node);
    graphOf.set(index.db, node);
    const parts: string[] = [];
    for (const resource of index.db.resources) {
      if (!resource.is_public) continue;
      parts.push(toNQuads(triplesFor(state, index, resource, "schema", null), graph));
    }
    store.load(parts.join(""), { format: "application/n-quads" });
  }
  return (query, format, db) =>
    store.query(query, {
      results_format: format,
      default_graph: graphOf.get(db),
      named_graphs: graphs,
    }) as string | boolean;
}
