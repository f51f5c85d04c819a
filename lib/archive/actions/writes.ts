/**
 * The archive's writes and account calls as free functions of the client
 * (viem's actions): `createResource(archive, input)`. `Archive`'s methods
 * of the same names call these; each loads the code that does the work on
 * its first call.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { type ArchiveHandle, contextOf } from "../_archive_handle.ts";
import { checkCall } from "../_option_rules.ts";
import type { DatabaseRecord } from "../create_database.ts";
import type { CreateEntityInput } from "../create_entity.ts";
import type { CreateResourceInput } from "../create_resource.ts";
import type { CustomDomain } from "../domains.ts";
import type { ImportResult } from "../import_csv.ts";
import type { IssuedKey } from "../issue_key.ts";
import type { ArchiveEntity, ArchiveResource } from "../types.ts";
import type { UpdateSettingsResult } from "../update_settings.ts";

/** The fields of a resource a change may set: any of `createResource`'s but its slug. */
export type ResourceChanges = Partial<Omit<CreateResourceInput, "slug">>;

/**
 * Issues an API key for an identity-provider session, as {@linkcode Archive.issueKey} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param idToken The session's ID token.
 * @param options `scopes`.
 * @returns The key, shown once.
 * @example A read key
 * ```ts
 * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const { key } = await issueKey(archive, SANDBOX_ID_TOKENS.shinano, { scopes: ["read"] });
 * console.log(key.length > 0);
 * ```
 */
export async function issueKey(
  archive: ArchiveHandle,
  idToken: string,
  options: { scopes?: ("read" | "write")[] } = {},
): Promise<IssuedKey> {
  checkCall("Archive.issueKey", options);
  return await (await import("../issue_key.ts")).issueKey(contextOf(archive), idToken, options);
}

/**
 * Creates a database in the account, as {@linkcode Archive.createDatabase} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param input Its `slug` and `title`.
 * @returns The database.
 * @example A new database
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * console.log(await createDatabase(archive, { slug: "postcards", title: "Postcards" }));
 * ```
 */
export async function createDatabase(
  archive: ArchiveHandle,
  input: { slug: string; title: string },
): Promise<DatabaseRecord> {
  return await (await import("../create_database.ts")).createDatabase(contextOf(archive), input);
}

/**
 * Changes the database's settings, as {@linkcode Archive.updateSettings} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param settings The settings to change.
 * @returns The settings, and the paths that moved.
 * @example Switch the service
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const { moved } = await updateSettings(archive, { service: "records" });
 * console.log(moved);
 * ```
 */
export async function updateSettings(
  archive: ArchiveHandle,
  settings: Record<string, unknown>,
): Promise<UpdateSettingsResult> {
  return await (await import("../update_settings.ts")).updateSettings(contextOf(archive), settings);
}

/**
 * Creates a resource, as {@linkcode Archive.createResource} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param input Its slug, title, metadata and place.
 * @returns The resource.
 * @example A letter
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * console.log((await createResource(archive, { slug: "letter-9001", title: "A letter" })).slug);
 * ```
 */
export async function createResource(
  archive: ArchiveHandle,
  input: CreateResourceInput,
): Promise<ArchiveResource> {
  return await (await import("../create_resource.ts")).createResource(contextOf(archive), input);
}

/**
 * Changes a resource, as {@linkcode Archive.updateResource} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's id or slug.
 * @param changes The fields to set.
 * @returns The resource as it now is.
 * @example A new title
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * await createResource(archive, { slug: "letter-9001", title: "A letter" });
 * console.log((await updateResource(archive, "letter-9001", { title: "A long letter" })).title);
 * ```
 */
export async function updateResource(
  archive: ArchiveHandle,
  id: string,
  changes: ResourceChanges,
): Promise<ArchiveResource> {
  return await (await import("../update_resource.ts")).updateResource(
    contextOf(archive),
    id,
    changes,
  );
}

/**
 * Deletes a resource, as {@linkcode Archive.deleteResource} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's id or slug.
 * @returns Nothing, once deleted.
 * @example Create, then delete
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * await createResource(archive, { slug: "letter-9001", title: "A letter" });
 * await deleteResource(archive, "letter-9001");
 * ```
 */
export async function deleteResource(archive: ArchiveHandle, id: string): Promise<void> {
  return await (await import("../delete_resource.ts")).deleteResource(contextOf(archive), id);
}

/**
 * Creates an authority entity, as {@linkcode Archive.createEntity} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param input Its slug, type, labels and links.
 * @returns The entity.
 * @example A place
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const place = await createEntity(archive, {
 *   slug: "shimoda", entityType: "place", prefLabel: { en: "Shimoda" }, altLabels: [], sameAs: [],
 * });
 * console.log(place.slug);
 * ```
 */
export async function createEntity(
  archive: ArchiveHandle,
  input: CreateEntityInput,
): Promise<ArchiveEntity> {
  return await (await import("../create_entity.ts")).createEntity(contextOf(archive), input);
}

/**
 * The account's usage, as {@linkcode Archive.usage} reads it.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @returns Storage and request counts.
 * @example Storage used
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * console.log((await usage(archive)).storage_bytes);
 * ```
 */
export async function usage(archive: ArchiveHandle): Promise<Record<string, unknown>> {
  return await (await import("../usage.ts")).usage(contextOf(archive));
}

/**
 * The database's custom domains, as {@linkcode Archive.domains} lists them.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @returns Each domain with its status.
 * @example List them
 * ```ts
 * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
 * });
 * for (const d of await domains(archive)) console.log(d.host, d.status);
 * ```
 */
export async function domains(archive: ArchiveHandle): Promise<CustomDomain[]> {
  return await (await import("../domains.ts")).domains(contextOf(archive));
}

/**
 * Adds a custom domain, as {@linkcode Archive.addDomain} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param host The host name.
 * @returns The domain, with the DNS records to publish.
 * @example Add one
 * ```ts
 * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
 * });
 * console.log((await addDomain(archive, "letters.example.org")).status);
 * ```
 */
export async function addDomain(archive: ArchiveHandle, host: string): Promise<CustomDomain> {
  return await (await import("../domains.ts")).addDomain(contextOf(archive), host);
}

/**
 * Asks the platform to verify a custom domain's DNS, as {@linkcode Archive.verifyDomain} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param host The host name.
 * @returns The domain and its status.
 * @example Verify after publishing the record
 * ```ts
 * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
 * });
 * const { records } = await addDomain(archive, "letters.example.org");
 * for (const record of records ?? []) sandbox.publishDns(record.value);
 * console.log((await verifyDomain(archive, "letters.example.org")).status);
 * ```
 */
export async function verifyDomain(archive: ArchiveHandle, host: string): Promise<CustomDomain> {
  return await (await import("../domains.ts")).verifyDomain(contextOf(archive), host);
}

/**
 * Removes a custom domain, as {@linkcode Archive.removeDomain} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param host The host name.
 * @returns Nothing, once removed.
 * @example Add, then remove
 * ```ts
 * import { SANDBOX_ID_TOKENS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", session: SANDBOX_ID_TOKENS.shinano, progress: false,
 * });
 * await addDomain(archive, "letters.example.org");
 * await removeDomain(archive, "letters.example.org");
 * ```
 */
export async function removeDomain(archive: ArchiveHandle, host: string): Promise<void> {
  return await (await import("../domains.ts")).removeDomain(contextOf(archive), host);
}

/**
 * Imports resources from a table or CSV text, as {@linkcode Archive.importCsv} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param tableOrCsv An Arquero table or CSV text, one resource a row.
 * @returns What was created and updated.
 * @example Two rows
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * import * as aq from "arquero";
 * const { created } = await importCsv(archive, aq.table({ slug: ["a-1", "a-2"], title: ["甲", "乙"] }));
 * console.log(created);
 * ```
 */
export async function importCsv(
  archive: ArchiveHandle,
  tableOrCsv: ColumnTable | string,
): Promise<ImportResult> {
  return await (await import("../import_csv.ts")).importCsv(contextOf(archive), tableOrCsv);
}
