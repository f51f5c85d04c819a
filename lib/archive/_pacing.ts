/**
 * The archive platform's default pacing: at most two requests in flight to
 * one host (an OAI-PMH harvest walks two windows at once, a ResourceSync
 * read two pages). Why two: docs/ASSUMPTIONS.md ("Requests in flight").
 *
 * @module
 */

/** The archive's per-service defaults, applied before the user's options. */
export const ARCHIVE_PACING = { concurrency: 2 } as const;
