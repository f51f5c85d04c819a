/**
 * The linked data of one resource as a given caller sees it: the mapping
 * context (visible parent and children, the account's entities, URIs).
 *
 * @module
 */

import { type ArchiveState, type Caller, canReadResource, type DatabaseIndex } from "./_state.ts";
import { type LdTriple, type Profile, resourceTriples } from "./_linked_data.ts";
import type { SeedResource } from "./seed.ts";

/** The data URI of a resource: `/{account}/{db}/data/{slug}`. */
export function dataUri(state: ArchiveState, index: DatabaseIndex, slug: string): string {
  return `${state.origin}/${index.db.account}/${index.db.slug}/data/${encodeURIComponent(slug)}`;
}

/** The URI of an entity. */
export function entityUri(state: ArchiveState, account: string, slug: string): string {
  return `${state.origin}/api/${account}/entities/${encodeURIComponent(slug)}`;
}

/** The named graph of a site in the SPARQL store. */
export function graphUri(state: ArchiveState, index: DatabaseIndex): string {
  return `${state.origin}/${index.db.account}/${index.db.slug}/graph`;
}

/** The triples of a resource for a caller, in a profile. */
export function triplesFor(
  state: ArchiveState,
  index: DatabaseIndex,
  resource: SeedResource,
  profile: Profile,
  caller: Caller | null,
): LdTriple[] {
  const parent = resource.parent ? index.bySlug.get(resource.parent) : undefined;
  return resourceTriples(resource, profile, {
    dataUri: (slug) => dataUri(state, index, slug),
    entityUri: (slug) => entityUri(state, index.db.account, slug),
    parent: parent && canReadResource(index.db, parent, caller) ? parent : undefined,
    children: (index.children.get(resource.slug) ?? []).filter((child) =>
      canReadResource(index.db, child, caller)
    ),
    entities: state.entities.get(index.db.account) ?? [],
  });
}
