/**
 * The downloads of a mirror run: up to `concurrency` resources in flight
 * (the client's pacer holds the cap per host and eases off on 429 and 503),
 * each from the source's own host unless the caller allowed others, with
 * redirects followed only within that authority, each file recorded in the
 * journal as soon as it is written.
 *
 * @module
 */

import type { HttpClient, HttpStream } from "../../http/client.ts";
import { ProtocolError, ResponseTooLargeError } from "../../errors/errors.ts";
import type { SitemapEntry } from "./_sitemap.ts";
import { type MirrorJournal, versionOf } from "./_mirror_journal.ts";
import { ensureFolders, mirrorPath } from "./_mirror_layout.ts";
import { concernsOneResource, saveResource } from "./_mirror_download.ts";
import { MirrorFileError } from "./mirror_error.ts";
import { holdsSecret, secretIn } from "./_mirror_locs.ts";
import type { MirroredFile } from "./types.ts";

const REDIRECTS: readonly number[] = [301, 302, 303, 307, 308];
const MAX_REDIRECTS = 5;

/** What the downloads of a run work with. */
export interface MirrorFetch {
  /** The source's client. */
  http: HttpClient;
  /** The host that named the lists: resources elsewhere need `allowOtherHosts`. */
  host: string;
  /** Whether the caller allowed other hosts. */
  allowOtherHosts: boolean;
  /** The URL the lists were read by: its origin alone gets the client's headers. */
  source: string;
  /** The URL to ask for a kept location by (its credentials given back). */
  askFor: (loc: string) => string;
  /** The mirror's folder (absolute). */
  root: string;
  /** The files tidepool wrote. */
  journal: MirrorJournal;
  /** Most bytes of a resource whose list and server give no length. */
  maxBytes?: number;
  /** Stops the run. */
  signal?: AbortSignal;
}

/** What the downloads came to. */
export interface FetchOutcome {
  /** Files written. */
  written: MirroredFile[];
  /** Resources not kept, with why. */
  failed: { entry: SitemapEntry; error: MirrorFileError }[];
}

/**
 * Downloads every entry, up to the client's concurrency at once. An error
 * that concerns one resource is kept with it and the others go on; any
 * other (the source unreachable, the signal) stops the run once the
 * downloads in flight have ended, every finished file recorded.
 */
export async function fetchAll(
  entries: readonly SitemapEntry[],
  context: MirrorFetch,
): Promise<FetchOutcome> {
  const { http } = context;
  const outcome: FetchOutcome = { written: [], failed: [] };
  const task = http.progress("ResourceSync mirror", { unit: "files", total: entries.length });
  const made = new Set<string>();
  /** The location each path was given to in this run: a path is one location's only. */
  const claimed = new Map<string, string>();
  let next = 0;
  let done = 0;
  let stop: unknown;
  const worker = async () => {
    while (stop === undefined && next < entries.length) {
      const entry = entries[next++];
      try {
        outcome.written.push(await fetchOne(entry, context, made, claimed));
      } catch (error) {
        if (context.signal?.aborted || !concernsOneResource(error)) {
          stop ??= context.signal?.aborted ? context.signal.reason : error;
          return;
        }
        outcome.failed.push({ entry, error: asFileError(entry, error) });
      }
      task.update(++done, {
        detail: `${http.inFlight.requests} requests in flight, ${outcome.failed.length} failed`,
      });
    }
  };
  const workers = Math.max(1, Math.min(http.pacing.concurrency, entries.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (stop !== undefined) {
    task.fail(`${done} of ${entries.length} files`);
    throw stop;
  }
  task.finish(`${outcome.written.length} files written, ${outcome.failed.length} failed`);
  return outcome;
}

async function fetchOne(
  entry: SitemapEntry,
  context: MirrorFetch,
  made: Set<string>,
  claimed: Map<string, string>,
): Promise<MirroredFile> {
  const { root, journal } = context;
  // A location keeps the path it was first written at: its identity, whatever the naming is now.
  const path = (journal.get(entry.loc) ?? journal.claimOf(entry.loc))?.path ??
    mirrorPath(entry.loc, context.host);
  // A file name is stored (the journal) and shown: one holding a secret is refused first.
  if (holdsSecret(path)) throw secretIn(entry.loc, "its file name");
  // Checked and claimed before anything is awaited: a download at the same time sees the claim.
  const owner = journal.ownerOf(path) ?? claimed.get(path);
  if (owner !== undefined && owner !== entry.loc) {
    throw new MirrorFileError(
      entry.loc,
      `its file name ${path} is that of ${owner}; the file is kept for ${owner}`,
      {
        path,
        hint:
          "Nothing was written for it; the source lists two locations that name one file: report it to the source",
      },
    );
  }
  claimed.set(path, entry.loc);
  if (new URL(entry.loc).host !== context.host && !context.allowOtherHosts) {
    throw otherHost(entry.loc, entry.loc, context.host);
  }
  // The listed length caps the body: one that is not a count of bytes (NaN, Infinity, 1.5, -1)
  // would cap nothing, and the caller's maxBytes would no longer hold.
  if (entry.length !== null && !(Number.isSafeInteger(entry.length) && entry.length >= 0)) {
    throw new MirrorFileError(
      entry.loc,
      `its listed length (${entry.length}) is not a number of bytes`,
      { path },
    );
  }
  await ensureFolders(root, path, made, entry.loc);
  let saved;
  try {
    const stream = await openResource(entry, context);
    saved = await saveResource(stream.body, {
      root,
      path,
      entry,
      journal,
      version: versionOf(entry),
      signal: context.signal,
    });
  } catch (error) {
    // The listed length is the body's cap: past it, declared or sent, the list is broken.
    if (error instanceof ResponseTooLargeError && entry.length !== null) {
      throw new MirrorFileError(
        entry.loc,
        `the server sends more than the ${entry.length} bytes the list gives`,
        { path },
      );
    }
    throw error;
  }
  const record = { loc: entry.loc, path, ...saved, version: versionOf(entry) };
  await journal.written(record);
  return { loc: entry.loc, path, bytes: saved.bytes, sha256: saved.sha256 };
}

/** The resource's content, following redirects only within the source's authority. */
async function openResource(entry: SitemapEntry, context: MirrorFetch): Promise<HttpStream> {
  let url = context.askFor(entry.loc);
  const sourceOrigin = new URL(context.source).origin;
  for (let hops = 0;; hops++) {
    // Another origin gets none of the source's keys: not its headers, nor user information.
    const own = new URL(url).origin === sourceOrigin;
    const answer = await context.http.stream({
      path: own ? url : withoutUserInfo(url),
      clientHeaders: own,
      headers: { accept: entry.type ?? "*/*" },
      idempotent: true,
      signal: context.signal,
      // A listed length caps the body too: one byte past it is refused as it arrives.
      maxBytes: entry.length ?? context.maxBytes,
      redirect: "manual",
      acceptStatus: REDIRECTS,
    });
    if (!REDIRECTS.includes(answer.status)) return answer;
    await answer.body.cancel().catch(() => {});
    const location = answer.headers.get("location");
    if (!location || hops >= MAX_REDIRECTS) {
      throw new ProtocolError(
        `Cannot mirror ${entry.loc}: ${
          location ? `more than ${MAX_REDIRECTS} redirects` : "a redirect without a Location"
        }`,
        { code: "badRedirect" },
      );
    }
    const target = new URL(location, url);
    if (target.host !== context.host && !context.allowOtherHosts) {
      throw otherHost(entry.loc, target.href, context.host);
    }
    url = target.href;
  }
}

function withoutUserInfo(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.href;
}

function otherHost(loc: string, target: string, host: string): MirrorFileError {
  return new MirrorFileError(loc, `it leads to another host than the source's ${host}: ${target}`, {
    hint:
      "Nothing was fetched from it; pass allowOtherHosts: true to the client if you trust that host",
  });
}

function asFileError(entry: SitemapEntry, error: unknown): MirrorFileError {
  if (error instanceof MirrorFileError) return error;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new MirrorFileError(entry.loc, message);
}
