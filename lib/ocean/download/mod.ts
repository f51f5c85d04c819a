/**
 * File access of download-type Ocean assets: the provider fee (initialize)
 * and the signed download, saved safely.
 *
 * @module
 */

export * from "./initialize.ts";
export * from "./download.ts";
