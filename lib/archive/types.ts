/**
 * The records the archive platform sends, as tidepool hands them back.
 *
 * @module
 */

/** A metadata value: text, a number, or several of them. */
export type MetadataValue = string | number | boolean | null | (string | number | boolean)[];

/** A resource (item, collection, ...) of a database. */
export interface ArchiveResource {
  /** The UUID. */
  id: string;
  /** The slug, unique per database. */
  slug: string;
  /** The type, e.g. `item`, `collection`. */
  type: string;
  /** The title. */
  title: string;
  /** CURIE keys (`dcterms:creator`) and free keys. */
  metadata: Record<string, MetadataValue>;
  /** Whether the resource is public. */
  isPublic: boolean;
  /** The parent's slug (or id when only that is given), or null. */
  parent: string | null;
}

/** An authority record (account-wide). */
export interface ArchiveEntity {
  /** The slug. */
  slug: string;
  /** The kind, e.g. `place`, `person`. */
  entityType: string;
  /** Language code to label. */
  prefLabel: Record<string, string>;
  /** Spelling variants and transliterations. */
  altLabels: string[];
  /** External authority URIs. */
  sameAs: string[];
  /** Coordinates, for places. */
  coordinates: { lat: number; lon: number } | null;
}

/** A JSON-LD document as parsed from the service. */
export type JsonLdDocument = Record<string, unknown> | unknown[];

/** The raw resource shape on the wire (snake_case visibility, parent as reference). */
export interface RawResource {
  /** The resource id (a UUID on the platform). */
  id?: string;
  /** The UUID, where the service sends it under this name. */
  uuid?: string;
  /** The slug, unique per database. */
  slug?: string;
  /** The resource type, such as `item` or `collection`. */
  type?: string;
  /** The title. */
  title?: string;
  /** Metadata: CURIE keys (`dcterms:creator`) and free keys. */
  metadata?: Record<string, MetadataValue>;
  /** Visibility, as the spec names it. */
  is_public?: boolean;
  /** Visibility, as some answers name it. */
  isPublic?: boolean;
  /** The parent, as a slug, an id, or a reference object. */
  parent?: string | { id?: string; slug?: string } | null;
}

/** The parent reference of a raw resource as one string. */
export function parentRef(parent: RawResource["parent"]): string | null {
  if (parent === null || parent === undefined) return null;
  if (typeof parent === "string") return parent;
  return parent.slug ?? parent.id ?? null;
}

/** A raw resource as an {@linkcode ArchiveResource}. */
export function toResource(raw: RawResource): ArchiveResource {
  return {
    id: String(raw.id ?? raw.uuid ?? ""),
    slug: String(raw.slug ?? ""),
    type: String(raw.type ?? ""),
    title: String(raw.title ?? ""),
    metadata: raw.metadata ?? {},
    isPublic: Boolean(raw.is_public ?? raw.isPublic ?? false),
    parent: parentRef(raw.parent),
  };
}
