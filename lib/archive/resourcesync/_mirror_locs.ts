/**
 * A location as a mirror keeps it: without the credentials a source may
 * echo in the locations it lists (`?api-key=`, `user:password@`), so no
 * key reaches a file name, the list of locations, the journal or the list
 * of what is still to fetch. The kept form is the location's identity from
 * run to run; the listed form, key and all, is what is asked for.
 *
 * @module
 */

import { redact } from "../../errors/redact.ts";
import { withCredentialsOf, withoutCredentials } from "../../http/credentials_in_url.ts";
import type { SitemapEntry } from "./_sitemap.ts";

/** Listed entries in their kept form, and the listed location of each kept one. */
export interface KeptEntries {
  /** The entries, each `loc` without credentials. */
  entries: SitemapEntry[];
  /** The location each kept one was listed as, to ask for it by. */
  listed: Map<string, string>;
}

/**
 * The kept form of a location: without credentials; one that is not a URL
 * redacted (it is refused when its file is named).
 *
 * @param loc A listed location.
 * @returns The location the mirror keeps.
 */
export function keptLoc(loc: string): string {
  try {
    return withoutCredentials(loc);
  } catch {
    return redact(loc);
  }
}

/**
 * The listed entries in their kept form.
 *
 * @param entries The entries as listed.
 * @returns The kept entries and where to ask for each.
 */
export function keepEntries(entries: readonly SitemapEntry[]): KeptEntries {
  const listed = new Map<string, string>();
  const kept = entries.map((entry) => {
    const loc = keptLoc(entry.loc);
    listed.set(loc, entry.loc);
    return loc === entry.loc ? entry : { ...entry, loc };
  });
  return { entries: kept, listed };
}

/**
 * Where to ask for a kept location: as listed in this run, else (one an
 * earlier run left to fetch) with the credentials of the URL the lists were
 * read by, on that origin only.
 *
 * @param loc The kept location.
 * @param listed The listed location of each kept one this run.
 * @param source The URL the lists were read by (the capability list's).
 * @returns The URL to ask.
 */
export function askedLoc(loc: string, listed: ReadonlyMap<string, string>, source: string): string {
  const asListed = listed.get(loc);
  if (asListed !== undefined) return asListed;
  try {
    return withCredentialsOf(loc, source);
  } catch {
    return loc;
  }
}
