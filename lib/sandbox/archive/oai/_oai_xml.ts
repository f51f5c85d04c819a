/**
 * XML writing for the sandbox OAI-PMH provider: the envelope, headers and
 * the two metadata formats, with every value escaped.
 *
 * @module
 */

import type { OaiSandboxRecord } from "./types.ts";

/** Escapes text for element content and attribute values. */
export function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : "&apos;",
  );
}

/** The OAI-PMH envelope around a verb's body. */
export function envelope(
  baseURL: string,
  request: Record<string, string>,
  body: string,
  responseDate: string,
): string {
  const attrs = Object.entries(request).map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
<responseDate>${responseDate}</responseDate>
<request${attrs}>${esc(baseURL)}</request>
${body}
</OAI-PMH>
`;
}

/** The header element of a record. */
export function header(record: OaiSandboxRecord): string {
  const status = record.deleted ? ' status="deleted"' : "";
  const sets = record.setSpec.map((s) => `<setSpec>${esc(s)}</setSpec>`).join("");
  return `<header${status}><identifier>${esc(record.identifier)}</identifier><datestamp>${
    esc(record.datestamp)
  }</datestamp>${sets}</header>`;
}

/** A whole record in a metadata format (header only when deleted). */
export function recordXml(record: OaiSandboxRecord, prefix: string, origin: string): string {
  if (record.deleted) return `<record>${header(record)}</record>`;
  const metadata = prefix === "jps" ? jpsXml(record, origin) : dcXml(record);
  return `<record>${header(record)}<metadata>${metadata}</metadata></record>`;
}

function dcXml(record: OaiSandboxRecord): string {
  let out =
    '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">';
  for (const [name, values] of Object.entries(record.dc)) {
    for (const value of values) out += `<dc:${name}>${esc(value)}</dc:${name}>`;
  }
  return out + "</oai_dc:dc>";
}

function jpsXml(record: OaiSandboxRecord, origin: string): string {
  const about = `${origin}/data/${record.slug}`;
  const nested = new Map<string, string>();
  let fields = "";
  for (const [name, values] of Object.entries(record.jps ?? {})) {
    const dot = name.indexOf(".");
    const target = dot === -1 ? name : name.slice(dot + 1);
    let xml = "";
    for (const value of values) {
      xml += /^https?:/.test(value)
        ? `<${target} rdf:resource="${esc(value)}"/>`
        : `<${target}>${esc(value)}</${target}>`;
    }
    if (dot === -1) fields += xml;
    else nested.set(name.slice(0, dot), (nested.get(name.slice(0, dot)) ?? "") + xml);
  }
  for (const [outer, inner] of nested) {
    fields += `<${outer}><rdf:Description>${inner}</rdf:Description></${outer}>`;
  }
  return '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:schema="http://schema.org/" xmlns:jps="https://jpsearch.go.jp/term/property#">' +
    `<rdf:Description rdf:about="${esc(about)}">${fields}</rdf:Description></rdf:RDF>`;
}
