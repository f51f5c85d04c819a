/**
 * What ties an `Archive` to its shared state, so that the archive's actions
 * (lib/archive/actions/) are free functions of the client, viem's way:
 * `search(archive, parameters)`. The state stays private: it is reached
 * only through the client it was made for.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { pagesWithProvenance, withProvenance } from "../table/with_provenance.ts";
import type { ArchiveContext } from "./_context.ts";
import { clientStates } from "../http/_client_state.ts";

/** What every archive action takes first: an `Archive` client. */
export interface ArchiveHandle {
  /** The platform address. */
  readonly url: string;
  /** The account slug, if given. */
  readonly account?: string;
  /** The database slug, if given. */
  readonly db?: string;
}

const contexts = clientStates<ArchiveHandle, ArchiveContext>({
  message: "Not an Archive client: the archive actions take the client first",
  hint: "Pass the client made by new Archive(url, options), e.g. search(archive, { q })",
});

/** Ties a new client to its state; `new Archive` calls it once. */
export const bindContext: (archive: ArchiveHandle, context: ArchiveContext) => void = contexts.bind;

/** The state of a client, refused for anything `new Archive` did not make. */
export const contextOf: (archive: ArchiveHandle) => ArchiveContext = contexts.of;

/**
 * Runs a table call with its provenance: the platform, the client's account
 * and database, and the call's parameters.
 */
export async function archiveTable<T>(
  archive: ArchiveHandle,
  call: { operation: string; params: Record<string, unknown> },
  run: (context: ArchiveContext) => Promise<T>,
  tablesOf?: (value: T) => readonly ColumnTable[],
): Promise<T> {
  const context = contextOf(archive);
  return await withProvenance(
    {
      service: archive.url,
      operation: `Archive.${call.operation}`,
      params: { account: archive.account, db: archive.db, ...call.params },
    },
    () => run(context),
    tablesOf,
  );
}

/** Hands on the pages of a page-by-page read, each with its own provenance. */
export function archivePages(
  archive: ArchiveHandle,
  call: { operation: string; params: Record<string, unknown> },
  pages: AsyncGenerator<ColumnTable>,
): AsyncGenerator<ColumnTable> {
  return pagesWithProvenance(
    {
      service: archive.url,
      operation: `Archive.${call.operation}`,
      params: { account: archive.account, db: archive.db, ...call.params },
    },
    pages,
  );
}
