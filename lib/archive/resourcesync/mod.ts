/**
 * ResourceSync (ANSI/NISO Z39.99-2017) into tables: {@linkcode ResourceSync}.
 *
 * @module
 */

export * from "./resource_sync.ts";
export * from "./types.ts";
export * from "./mirror_error.ts";
