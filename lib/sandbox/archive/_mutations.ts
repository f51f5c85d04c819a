/**
 * Changes to the sandbox's resources that keep every lookup of a database
 * (by slug, by id, children, search text) in step, and stamp the update
 * time that OAI-PMH and ResourceSync report.
 *
 * @module
 */

import type { DatabaseIndex } from "./_state.ts";
import type { SeedResource, SeedValue } from "./seed.ts";

/** The fields a write may set on a resource. */
export interface ResourcePatch {
  /** New resource type. */
  type?: "item" | "collection";
  /** New title. */
  title?: string;
  /** Metadata fields to set, by property name. */
  metadata?: Record<string, SeedValue>;
  /** Whether the resource is public. */
  is_public?: boolean;
  /** New parent's slug, or null for none. */
  parent?: string | null;
}

/** Now, ISO 8601 with whole seconds (the datestamp granularity). */
export function nowSeconds(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
}

function indexText(index: DatabaseIndex, resource: SeedResource): void {
  const values = Object.values(resource.metadata).flat().join(" ");
  index.text.set(resource, `${resource.title} ${values}`.toLowerCase());
}

function link(index: DatabaseIndex, resource: SeedResource): void {
  if (!resource.parent) return;
  const list = index.children.get(resource.parent) ?? [];
  list.push(resource);
  index.children.set(resource.parent, list);
}

function unlink(index: DatabaseIndex, resource: SeedResource): void {
  if (!resource.parent) return;
  const list = (index.children.get(resource.parent) ?? []).filter((r) => r !== resource);
  index.children.set(resource.parent, list);
}

/** Adds a new resource (the slug is known to be free). */
export function addResource(index: DatabaseIndex, resource: SeedResource): void {
  index.db.resources.push(resource);
  index.bySlug.set(resource.slug, resource);
  index.byId.set(resource.id, resource);
  link(index, resource);
  indexText(index, resource);
}

/** Applies a partial update and stamps `updated` with now (or `at`). */
export function patchResource(
  index: DatabaseIndex,
  resource: SeedResource,
  patch: ResourcePatch,
  at = nowSeconds(),
): SeedResource {
  unlink(index, resource);
  if (patch.type !== undefined) resource.type = patch.type;
  if (patch.title !== undefined) resource.title = patch.title;
  if (patch.metadata !== undefined) resource.metadata = { ...resource.metadata, ...patch.metadata };
  if (patch.is_public !== undefined) resource.is_public = patch.is_public;
  if (patch.parent !== undefined) resource.parent = patch.parent;
  resource.updated = at;
  link(index, resource);
  indexText(index, resource);
  return resource;
}

/** Removes a resource; its children lose their parent. */
export function removeResource(index: DatabaseIndex, resource: SeedResource): void {
  unlink(index, resource);
  index.db.resources.splice(index.db.resources.indexOf(resource), 1);
  index.bySlug.delete(resource.slug);
  index.byId.delete(resource.id);
  index.text.delete(resource);
  for (const child of index.children.get(resource.slug) ?? []) child.parent = null;
  index.children.delete(resource.slug);
}
