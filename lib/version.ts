/**
 * tidepool's version, from the `version` of its `deno.json`. Imported as a
 * JSON module rather than read at run time, so it holds in a published
 * package and without `--allow-read`.
 *
 * @module
 */

import config from "../deno.json" with { type: "json" };

/** The version of tidepool that is running, e.g. `0.1.0`. */
export const TIDEPOOL_VERSION: string = config.version;
