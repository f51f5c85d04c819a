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
import { MirrorFileError } from "./mirror_error.ts";

/** Listed entries in their kept form, and the listed location of each kept one. */
export interface KeptEntries {
  /** The entries, each `loc` without credentials. */
  entries: SitemapEntry[];
  /** The location each kept one was listed as, to ask for it by. */
  listed: Map<string, string>;
  /** The entries refused before anything is stored or asked (a secret in a kept location). */
  refused: MirrorFileError[];
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
  const kept: SitemapEntry[] = [];
  const refused: MirrorFileError[] = [];
  const locs = entries.map((entry) => keptLoc(entry.loc));
  // The listed forms of each kept location: two (told apart by credentials only) are one identity.
  const forms = new Map<string, Set<string>>();
  entries.forEach((entry, i) =>
    forms.set(locs[i], (forms.get(locs[i]) ?? new Set()).add(entry.loc))
  );
  const refusedForms = new Set<string>();
  entries.forEach((entry, i) => {
    const loc = locs[i];
    if (holdsSecret(loc)) {
      refused.push(secretIn(loc, "its location"));
    } else if (forms.get(loc)!.size > 1) {
      // One error for each listed form: a location listed twice as it is is one resource.
      if (!refusedForms.has(entry.loc)) refused.push(collapsed(loc, forms.get(loc)!.size));
      refusedForms.add(entry.loc);
    } else {
      listed.set(loc, entry.loc);
      kept.push(loc === entry.loc ? entry : { ...entry, loc });
    }
  });
  for (const set of forms.values()) {
    if (set.size > 1) {
      for (const form of set) listed.delete(form);
    }
  }
  return { entries: kept, listed, refused };
}

/** The error refusing each of the listed locations one kept location stands for. */
function collapsed(loc: string, count: number): MirrorFileError {
  return new MirrorFileError(
    loc,
    `the source lists ${count} locations that differ only in credentials (user information, or a parameter such as ?key=), and without them they are one location; none of them is kept`,
    {
      hint:
        "Nothing was stored or asked for them: the mirror keeps a location without its credentials and cannot tell these apart. Report it to the source",
    },
  );
}

/**
 * Whether a location or a file name holds what {@linkcode redact} removes
 * (a registered secret, a credential's shape), as written or once its
 * percent-encoding is undone: a secret is told by its text, wherever in a
 * URL it sits (a host, a parameter's name, a path partly escaped).
 *
 * @param text A kept location or a path below the mirror's folder.
 * @returns True when it must be neither stored nor used as a name.
 */
export function holdsSecret(text: string): boolean {
  for (const form of decodedForms(text)) if (redact(form) !== form) return true;
  return false;
}

/**
 * The error refusing a resource whose kept location or file name holds a
 * secret, showing it redacted in every form.
 *
 * @param loc The kept location.
 * @param what What holds the secret ("its location", "its file name").
 * @returns The error, naming nothing of the secret.
 */
export function secretIn(loc: string, what: string): MirrorFileError {
  const forms = decodedForms(loc);
  const shown = redact(forms.find((form) => redact(form) !== form) ?? forms.at(-1)!);
  return new MirrorFileError(
    shown,
    `${what} holds a credential or a secret the client was given (shown redacted)`,
    {
      hint:
        "Nothing was stored or asked for it: a mirror keeps no secret in a file or a file name. Report to the source that it echoes a credential in its locations",
    },
  );
}

/** A text, then its percent-decoded forms (escapes of escapes too), up to 3 rounds. */
function decodedForms(text: string): string[] {
  const forms = [text];
  for (let round = 0; round < 3; round++) {
    const next = percentDecoded(forms.at(-1)!);
    if (next === forms.at(-1)) break;
    forms.push(next);
  }
  return forms;
}

/** Percent-decoded; an escape that is not UTF-8 is read as one byte's character. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
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
