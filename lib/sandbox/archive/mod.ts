/**
 * The archive platform sandbox: a local server with seeded data for the
 * read endpoints (catalogue, search, resources, linked data, entities,
 * SPARQL over oxigraph, IIIF info).
 *
 * @module
 */

export {
  type ArchiveSandbox,
  type ArchiveSandboxOptions,
  startArchiveSandbox,
} from "./start_archive_sandbox.ts";
export {
  type ArchiveSeed,
  SANDBOX_ID_TOKENS,
  SANDBOX_KEYS,
  seedArchive,
  type SeedOptions,
} from "./seed.ts";
export type { HarvestingOptions } from "./_harvesting.ts";
export {
  type ArchiveFaults,
  type ArchiveShapes,
  DEFAULT_SHAPES,
  type LoggedRequest,
} from "./_state.ts";
export type { OaiProvider } from "./oai/oai_provider.ts";
export type { ResourcePatch } from "./_mutations.ts";
export type {
  SeedAccount,
  SeedAsset,
  SeedDatabase,
  SeedDomain,
  SeedResource,
  WithdrawnResource,
} from "./seed.ts";
export type { LocalServer } from "../_serve.ts";
export type { OaiFaults } from "./oai/types.ts";
export type { ResourceMetadata } from "./resourcesync/resourcesync_source.ts";
export type { SeedEntity, SeedValue } from "./seed.ts";
