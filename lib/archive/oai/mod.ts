/**
 * OAI-PMH 2.0 harvesting into tables: {@linkcode OaiPmh}.
 *
 * @module
 */

export * from "./oai_pmh.ts";
export * from "./types.ts";
export type { PagedReadOptions } from "../../paging/types.ts";
export * from "./harvest_dataset.ts";
export { DC_ELEMENTS, type DcElement } from "./dublin_core.ts";
export * from "./harvest_sources.ts";
