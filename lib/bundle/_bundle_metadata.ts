/**
 * Who made a bundle, under which licence, about what: the options of
 * `saveBundle` checked and put in the one form the RO-Crate, the Data Package
 * and CITATION.cff are all written from. A bundle meant for a repository
 * needs a title and a licence; a draft may go without.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

/** An author of a bundle: a name, and an ORCID and affiliation when known. */
export interface BundleAuthor {
  /** The name as it should be cited, such as `Natsume Sōseki` or `夏目 漱石`. */
  name: string;
  /** Given name(s), for CITATION.cff; optional. */
  givenName?: string;
  /** Family name, for CITATION.cff; optional. */
  familyName?: string;
  /** The ORCID iD, as `0000-0002-1825-0097` or `https://orcid.org/0000-0002-1825-0097`. */
  orcid?: string;
  /** The institution, as a name. */
  affiliation?: string;
}

/** An author checked: the ORCID as its URL. */
export interface CheckedAuthor {
  readonly name: string;
  readonly givenName?: string;
  readonly familyName?: string;
  /** `https://orcid.org/<id>`, checksum verified. */
  readonly orcid?: string;
  readonly affiliation?: string;
}

/** A licence: an address (linked as an entity) or a sentence, or none in a draft. */
export interface CheckedLicense {
  /** The licence's address, when it has one. */
  readonly url?: string;
  /** The licence in words: its address, the sentence given, or that none was given. */
  readonly text: string;
  /** The SPDX identifier, for the licences that have a well-known address. */
  readonly spdx?: string;
}

/** The SPDX identifiers of licences often given by address. */
const SPDX_BY_URL: Readonly<Record<string, string>> = {
  "https://creativecommons.org/licenses/by/4.0/": "CC-BY-4.0",
  "https://creativecommons.org/licenses/by-sa/4.0/": "CC-BY-SA-4.0",
  "https://creativecommons.org/licenses/by-nc/4.0/": "CC-BY-NC-4.0",
  "https://creativecommons.org/licenses/by-nd/4.0/": "CC-BY-ND-4.0",
  "https://creativecommons.org/publicdomain/zero/1.0/": "CC0-1.0",
  "https://opendatacommons.org/licenses/odbl/1-0/": "ODbL-1.0",
  "https://opendatacommons.org/licenses/by/1-0/": "ODC-By-1.0",
  "https://opensource.org/licenses/MIT": "MIT",
};

/** The licence of a bundle, from the option; refused when missing unless a draft. */
export function checkedLicense(license: string | undefined, draft: boolean): CheckedLicense {
  if (license === undefined || license.trim() === "") {
    if (!draft) {
      throw new TidepoolError("Cannot save the bundle without a license", {
        hint:
          'Say how others may reuse the files, such as license: "https://creativecommons.org/licenses/by/4.0/", or pass draft: true for a bundle not yet meant for a repository',
      });
    }
    return { text: "No license was given: ask the authors before reusing these files" };
  }
  const text = license.trim();
  if (!/^https?:\/\/\S+$/.test(text)) return { text };
  const normal = text.replace(/^http:/, "https:").replace(/(\/[a-z-]+\/[\d.]+)$/, "$1/");
  return { url: text, text, spdx: SPDX_BY_URL[normal] ?? SPDX_BY_URL[text] };
}

/** The bundle's title, from the option; refused when missing unless a draft. */
export function checkedTitle(title: string | undefined, dir: string, draft: boolean): string {
  if (title !== undefined && title.trim() !== "") return title.trim();
  if (!draft) {
    throw new TidepoolError("Cannot save the bundle without a title", {
      hint:
        'Give the title a reader will cite, such as title: "Emotion expressions in Sōseki, 1905-1916", or pass draft: true',
    });
  }
  return dir.replace(/\/+$/, "").split("/").pop() || "tidepool bundle";
}

/** The authors, each with a name, their ORCID iDs checked. */
export function checkedAuthors(
  authors: readonly (string | BundleAuthor)[] | undefined,
): CheckedAuthor[] {
  return (authors ?? []).map((author, index) => {
    const given = typeof author === "string" ? { name: author } : author;
    if (typeof given?.name !== "string" || given.name.trim() === "") {
      throw new TidepoolError(`Invalid author ${index + 1} of saveBundle: it has no name`, {
        hint:
          'Give each author as a name or as { name, orcid, affiliation }, such as { name: "Ada Lovelace", orcid: "0000-0002-1825-0097" }',
      });
    }
    for (const field of Object.keys(given)) {
      if (!["name", "givenName", "familyName", "orcid", "affiliation"].includes(field)) {
        throw new TidepoolError(
          `Invalid author ${index + 1} of saveBundle: unknown field ${field}`,
          { hint: "An author has name, givenName, familyName, orcid and affiliation" },
        );
      }
    }
    return {
      name: given.name.trim(),
      ...(given.givenName ? { givenName: given.givenName } : {}),
      ...(given.familyName ? { familyName: given.familyName } : {}),
      ...(given.orcid ? { orcid: orcidUrl(given.orcid, given.name) } : {}),
      ...(given.affiliation ? { affiliation: given.affiliation } : {}),
    };
  });
}

/** An ORCID iD as its URL, its check digit verified (ISO 7064 MOD 11-2). */
function orcidUrl(orcid: string, name: string): string {
  const id = orcid.trim().replace(/^https?:\/\/orcid\.org\//, "");
  const wrong = (why: string) =>
    new TidepoolError(`Invalid ORCID iD of ${name}: ${orcid} ${why}`, {
      hint: "Copy the iD from the author's ORCID record, such as 0000-0002-1825-0097",
    });
  if (!/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(id)) throw wrong("is not four groups of four digits");
  const digits = id.replace(/-/g, "");
  let total = 0;
  for (const digit of digits.slice(0, -1)) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  if (digits.at(-1) !== (check === 10 ? "X" : String(check))) {
    throw wrong("has a wrong check digit");
  }
  return `https://orcid.org/${id}`;
}

/** Keywords, each a non-empty text. */
export function checkedKeywords(keywords: readonly string[] | undefined): string[] {
  return (keywords ?? []).map((keyword) => keyword.trim()).filter((keyword) => keyword !== "");
}
