/**
 * Type-level tests of the archive client and its actions
 * (`@tidepool/tidepool/archive/actions`): each action returns what the
 * `Archive` method of the same name returns, and refuses what the method
 * refuses. Checked by `deno check`; nothing here sends a request.
 */

import type { ColumnTable } from "arquero";
import { Archive, type ArchiveResource, type SearchResult } from "../../lib/archive/mod.ts";
import * as actions from "../../lib/archive/actions/mod.ts";
import { type Equals, expectType } from "./_type_checks.ts";

declare const archive: Archive;

/** The calls, never run: only type-checked. */
export function archiveCalls(): void {
  // An action returns what its method returns.
  expectType<Equals<ReturnType<typeof actions.search>, ReturnType<Archive["search"]>>>(true);
  expectType<Equals<ReturnType<typeof actions.searchAll>, ReturnType<Archive["searchAll"]>>>(true);
  expectType<Equals<ReturnType<typeof actions.resource>, Promise<ArchiveResource>>>(true);
  const found: Promise<SearchResult> = actions.search(archive, { q: "Tokyo" });
  const table: Promise<ColumnTable> = actions.sparql(archive, "SELECT * WHERE { ?s ?p ?o }");
  const asked: Promise<boolean> = actions.sparql<boolean>(archive, "ASK { ?s ?p ?o }");
  void found, table, asked;

  // Linked data: JSON-LD is parsed, Turtle is text.
  const turtle: Promise<string> = actions.linkedData(archive, "letter-0001", { format: "ttl" });
  const jsonld: Promise<actions.JsonLdDocument> = archive.linkedData("letter-0001");
  void turtle, jsonld;
  // @ts-expect-error Turtle is text, not a JSON-LD document.
  const wrong: Promise<actions.JsonLdDocument> = actions.linkedData(archive, "x", {
    format: "ttl",
  });
  void wrong;

  // @ts-expect-error An action takes the client first.
  void actions.search({ q: "Tokyo" });
  // @ts-expect-error Not a search option.
  void archive.search({ query: "Tokyo" });
  // @ts-expect-error The format of linkedDataTable goes in its options object.
  void actions.linkedDataTable(archive, "letter-0001", "ttl");
  // @ts-expect-error setAssetPublic takes { isPublic }, not a bare boolean.
  void actions.setAssetPublic(archive, "img-0001", true);
}
