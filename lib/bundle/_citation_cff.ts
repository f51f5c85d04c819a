/**
 * The `CITATION.cff` of a bundle (Citation File Format 1.2.0): how to cite
 * the data, read by GitHub, Zenodo and reference managers. Every value is
 * written as a double-quoted YAML scalar (JSON's string syntax, which YAML
 * reads the same), so no title or name can break the file.
 *
 * @module
 */

import type { BundleEntries } from "./_bundle_entries.ts";

/** The CFF version the file follows. */
export const CFF_VERSION = "1.2.0";

/** The specification, as the RO-Crate names what the file conforms to. */
export const CFF_PROFILE = "https://citation-file-format.github.io/1.2.0/";

const quoted = (text: string) => JSON.stringify(text);

/**
 * The text of `CITATION.cff` for a bundle.
 *
 * @param entries What the bundle holds and who made it.
 * @returns The YAML text.
 */
export function citationCff(entries: BundleEntries): string {
  const lines = [
    `cff-version: ${CFF_VERSION}`,
    `message: ${quoted("If you use these data, please cite them as below.")}`,
    "type: dataset",
    `title: ${quoted(entries.title)}`,
    `abstract: ${quoted(entries.description)}`,
    `date-released: ${quoted(entries.created.slice(0, 10))}`,
  ];
  // CFF requires at least one author: a bundle saved without any says so.
  const authors = entries.authors.length ? entries.authors : [{ name: "Unknown authors" }];
  lines.push("authors:");
  for (const author of authors) {
    const fields: [string, string | undefined][] = "familyName" in author || "givenName" in author
      ? [["family-names", author.familyName], ["given-names", author.givenName]]
      : [["name", author.name]];
    if ("orcid" in author) fields.push(["orcid", author.orcid]);
    if ("affiliation" in author) fields.push(["affiliation", author.affiliation]);
    const present = fields.filter((field): field is [string, string] => field[1] !== undefined);
    present.forEach(([key, value], index) => {
      lines.push(`${index === 0 ? "  - " : "    "}${key}: ${quoted(value)}`);
    });
  }
  const { license } = entries;
  if (license.spdx) lines.push(`license: ${quoted(license.spdx)}`);
  if (license.url) lines.push(`license-url: ${quoted(license.url)}`);
  if (entries.keywords.length) {
    lines.push("keywords:", ...entries.keywords.map((keyword) => `  - ${quoted(keyword)}`));
  }
  return `${lines.join("\n")}\n`;
}
