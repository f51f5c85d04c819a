/**
 * The linked-data mapping of the sandbox, following the spec's rules:
 * CURIE metadata keys map unchanged to properties, canonical keys
 * (`license`, ...) to their property, unmappable free keys are gathered
 * into one `schema:description` of `key: value` lines, hierarchy links only
 * resources visible to the caller, and a value matching an authority label
 * adds `schema:about`. Two profiles (schema.org, RiC-O), written as JSON-LD
 * or Turtle (with the n3 writer), and as N-Quads for the SPARQL store.
 *
 * @module
 */

// @ts-types="./_n3_writer.d.ts"
import { DataFactory, Writer } from "n3";
import type { SeedEntity, SeedResource } from "./seed.ts";

/** Namespaces the sandbox writes. */
export const NS: Record<string, string> = {
  schema: "http://schema.org/",
  dcterms: "http://purl.org/dc/terms/",
  rico: "https://www.ica.org/standards/RiC/ontology#",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

const S = NS.schema;
const DC = NS.dcterms;
const RICO = NS.rico;
const RDF_TYPE = `${NS.rdf}type`;

/** Keys without a prefix that map to a property. */
const CANONICAL: Record<string, string> = {
  license: `${S}license`,
  creator: `${DC}creator`,
  date: `${DC}date`,
  language: `${DC}language`,
  subject: `${DC}subject`,
  rights: `${DC}rights`,
};

/** An object term. */
export type LdObject =
  | { kind: "iri"; value: string }
  | { kind: "literal"; value: string; lang?: string; datatype?: string };

/** One triple of the mapping. */
export interface LdTriple {
  s: string;
  p: string;
  o: LdObject;
}

/** The two profiles. */
export type Profile = "schema" | "rico";

/** What the mapping needs to know about the resource's neighbours. */
export interface MappingContext {
  /** The data URI of a resource slug. */
  dataUri: (slug: string) => string;
  /** The URI of an entity slug. */
  entityUri: (slug: string) => string;
  /** The visible parent, if any. */
  parent?: SeedResource;
  /** The visible children. */
  children: SeedResource[];
  /** The account's entities. */
  entities: SeedEntity[];
}

const iri = (value: string): LdObject => ({ kind: "iri", value });
const plain = (value: string): LdObject => ({ kind: "literal", value });

function hasJapanese(text: string): boolean {
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(text);
}

/** A CURIE or canonical key as a property IRI, or undefined when unmappable. */
function property(key: string): string | undefined {
  const colon = key.indexOf(":");
  if (colon > 0) {
    const ns = NS[key.slice(0, colon)];
    return ns ? ns + key.slice(colon + 1) : undefined;
  }
  return CANONICAL[key];
}

function valueTerm(predicate: string, value: string | number): LdObject {
  if (typeof value === "number") {
    return { kind: "literal", value: String(value), datatype: `${NS.xsd}integer` };
  }
  if (/^https?:\/\/\S+$/.test(value)) return iri(value);
  if (predicate === `${DC}date`) {
    if (/^\d{4}-\d\d-\d\d$/.test(value)) {
      return { kind: "literal", value, datatype: `${NS.xsd}date` };
    }
    if (/^\d{4}$/.test(value)) return { kind: "literal", value, datatype: `${NS.xsd}gYear` };
  }
  return plain(value);
}

const CARRIERS: Record<string, string> = {
  letter: "paper",
  map: "paper, hand-coloured",
  photograph: "albumen print",
  book: "bound volume",
  collection: "mixed materials",
};

/** The triples of one resource in one profile. */
export function resourceTriples(
  resource: SeedResource,
  profile: Profile,
  context: MappingContext,
): LdTriple[] {
  const s = context.dataUri(resource.slug);
  const out: LdTriple[] = [];
  const add = (p: string, o: LdObject) => out.push({ s, p, o });
  const kind = String(resource.metadata["dcterms:type"] ?? resource.type);
  const titleLang = hasJapanese(resource.title) ? "ja" : "en";
  if (profile === "schema") {
    const types: Record<string, string> = {
      letter: "Message",
      map: "Map",
      photograph: "Photograph",
      book: "Book",
      collection: "Collection",
    };
    add(RDF_TYPE, iri(S + (types[kind] ?? "CreativeWork")));
    add(`${S}name`, { kind: "literal", value: resource.title, lang: titleLang });
    add(`${S}identifier`, plain(resource.slug));
  } else {
    add(RDF_TYPE, iri(RICO + (resource.type === "collection" ? "RecordSet" : "Record")));
    add(`${RICO}title`, { kind: "literal", value: resource.title, lang: titleLang });
    add(`${RICO}identifier`, plain(resource.slug));
  }
  const free: string[] = [];
  const about = new Set<string>();
  for (const [key, raw] of Object.entries(resource.metadata)) {
    const values: (string | number)[] = Array.isArray(raw) ? raw : [raw as string | number];
    for (const value of values) {
      const entity = matchEntity(context.entities, String(value));
      if (entity) about.add(context.entityUri(entity.slug));
    }
    const p = property(key);
    if (!p) {
      free.push(`${key}: ${values.join("; ")}`);
      continue;
    }
    for (const value of values) add(p, valueTerm(p, value));
  }
  if (free.length > 0) add(`${S}description`, plain(free.join("\n")));
  const up = profile === "schema" ? `${S}isPartOf` : `${RICO}isOrWasIncludedIn`;
  const down = profile === "schema" ? `${S}hasPart` : `${RICO}includesOrIncluded`;
  if (context.parent) add(up, iri(context.dataUri(context.parent.slug)));
  for (const child of context.children) add(down, iri(context.dataUri(child.slug)));
  for (const uri of about) add(`${S}about`, iri(uri));
  if (profile === "rico") {
    const instantiation = `${s}#instantiation`;
    add(`${RICO}hasInstantiation`, iri(instantiation));
    out.push({ s: instantiation, p: RDF_TYPE, o: iri(`${RICO}Instantiation`) });
    out.push({
      s: instantiation,
      p: `${RICO}hasCarrierType`,
      o: plain(CARRIERS[kind] ?? "unknown"),
    });
  }
  return out;
}

/** The entity whose label (any language, or a variant) equals the value. */
export function matchEntity(entities: SeedEntity[], value: string): SeedEntity | undefined {
  const wanted = value.trim().toLowerCase();
  return entities.find((entity) =>
    Object.values(entity.prefLabel).some((label) => label.toLowerCase() === wanted) ||
    entity.altLabels.some((label) => label.toLowerCase() === wanted)
  );
}

/** The triples of an entity (schema.org). */
export function entityTriples(entity: SeedEntity, uri: string): LdTriple[] {
  const out: LdTriple[] = [];
  const add = (p: string, o: LdObject) => out.push({ s: uri, p, o });
  add(RDF_TYPE, iri(S + (entity.entityType === "place" ? "Place" : "Person")));
  for (const [lang, label] of Object.entries(entity.prefLabel)) {
    add(`${S}name`, { kind: "literal", value: label, lang });
  }
  for (const label of entity.altLabels) add(`${S}alternateName`, plain(label));
  for (const same of entity.sameAs) add(`${S}sameAs`, iri(same));
  if (entity.coordinates) {
    const geo = `${uri}#geo`;
    add(`${S}geo`, iri(geo));
    out.push({ s: geo, p: RDF_TYPE, o: iri(`${S}GeoCoordinates`) });
    for (
      const [p, v] of [["latitude", entity.coordinates.lat], [
        "longitude",
        entity.coordinates.lon,
      ]] as const
    ) {
      out.push({
        s: geo,
        p: S + p,
        o: { kind: "literal", value: String(v), datatype: `${NS.xsd}decimal` },
      });
    }
  }
  return out;
}

// ---- writers ----------------------------------------------------------------

function n3Quad(triple: LdTriple, graph?: string) {
  const { namedNode, literal, quad, defaultGraph } = DataFactory;
  const object = triple.o.kind === "iri" ? namedNode(triple.o.value) : literal(
    triple.o.value,
    triple.o.lang ?? (triple.o.datatype ? namedNode(triple.o.datatype) : undefined),
  );
  return quad(
    namedNode(triple.s),
    namedNode(triple.p),
    object,
    graph ? namedNode(graph) : defaultGraph(),
  );
}

/** Turtle with the sandbox's prefixes. */
export function toTurtle(triples: LdTriple[]): string {
  const writer = new Writer({ prefixes: NS });
  let text = "";
  writer.addQuads(triples.map((t) => n3Quad(t)));
  writer.end((error: unknown, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

/** N-Quads in one named graph, for the SPARQL store. */
export function toNQuads(triples: LdTriple[], graph: string): string {
  const writer = new Writer({ format: "N-Quads" });
  let text = "";
  writer.addQuads(triples.map((t) => n3Quad(t, graph)));
  writer.end((error: unknown, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

const TERMS: Record<string, { id: string; type?: "@id" }> = {
  name: { id: "schema:name" },
  isPartOf: { id: "schema:isPartOf", type: "@id" },
  hasPart: { id: "schema:hasPart", type: "@id" },
};

function compact(iriValue: string): string {
  for (const [prefix, ns] of Object.entries(NS)) {
    if (iriValue.startsWith(ns) && /^[\w-]+$/.test(iriValue.slice(ns.length))) {
      return `${prefix}:${iriValue.slice(ns.length)}`;
    }
  }
  return iriValue;
}

/**
 * JSON-LD with an inline context of prefixes and a few terms (`name`,
 * `isPartOf`, `hasPart` coerced to `@id`); the resource is the top node and
 * the nodes it points to that have their own triples are nested in it.
 */
export function toJsonLd(triples: LdTriple[], root: string): Record<string, unknown> {
  const bySubject = new Map<string, LdTriple[]>();
  for (const triple of triples) {
    const list = bySubject.get(triple.s) ?? [];
    list.push(triple);
    bySubject.set(triple.s, list);
  }
  const context: Record<string, unknown> = { ...NS };
  for (const [term, def] of Object.entries(TERMS)) {
    context[term] = def.type ? { "@id": def.id, "@type": def.type } : def.id;
  }
  const node = (subject: string): Record<string, unknown> => {
    const out: Record<string, unknown> = { "@id": subject };
    const types: string[] = [];
    const props = new Map<string, unknown[]>();
    for (const { p, o } of bySubject.get(subject) ?? []) {
      if (p === RDF_TYPE && o.kind === "iri") {
        types.push(compact(o.value));
        continue;
      }
      const term = Object.entries(TERMS).find(([, def]) => compact(p) === def.id);
      const key = term ? term[0] : compact(p);
      let value: unknown;
      if (o.kind === "iri") {
        if (term?.[1].type === "@id") value = o.value;
        else if (o.value !== subject && bySubject.has(o.value) && o.value !== root) {
          value = node(o.value);
        } else value = { "@id": o.value };
      } else if (o.lang) value = { "@value": o.value, "@language": o.lang };
      else if (o.datatype && o.datatype !== `${NS.xsd}string`) {
        value = { "@value": o.value, "@type": compact(o.datatype) };
      } else value = o.value;
      const list = props.get(key) ?? [];
      list.push(value);
      props.set(key, list);
    }
    if (types.length > 0) out["@type"] = types.length === 1 ? types[0] : types;
    for (const [key, values] of props) out[key] = values.length === 1 ? values[0] : values;
    return out;
  };
  return { "@context": context, ...node(root) };
}
