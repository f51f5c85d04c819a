/**
 * The sandbox OAI-PMH 2.0 provider: a handler over a small record
 * interface, seeded records, and a standalone loopback server.
 *
 * @module
 */

export * from "./types.ts";
export * from "./seed_oai_records.ts";
export * from "./oai_provider.ts";
export * from "./start_oai_sandbox.ts";
