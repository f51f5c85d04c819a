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
