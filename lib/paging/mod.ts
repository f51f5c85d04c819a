/**
 * The one paging engine every paged read goes through: cursor kinds
 * (offset, page number, token, link, value), read-ahead within the client's
 * pacing, cancellation, repeat and cycle detection, caps, restarts,
 * progress and shortfall warnings.
 *
 * @module
 */

export * from "./types.ts";
export * from "./errors.ts";
export * from "./cursors.ts";
export * from "./walk_pages.ts";
