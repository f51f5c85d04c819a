/**
 * NodeInfo's `serviceEndpoints`: each route the node serves, by name, as
 * `[METHOD, path]`. ocean-node always sends it (src/components/httpRoutes/
 * rootEndpoint.ts builds it from its router with the names of routeUtils.ts)
 * and ocean.js finds every provider route through it, by name, ignoring
 * case. The spec's node does not list it; a shapes seed leaves it out.
 *
 * @module
 */

const S = "/api/services";
const A = "/api/aquarius";

/** Routes of the catalogue, always served. */
const CATALOGUE: Record<string, [string, string]> = {
  nonce: ["GET", `${S}/nonce`],
  getDDO: ["GET", `${A}/assets/ddo/:did/:force?`],
  getDDOMetadata: ["GET", `${A}/assets/metadata/:did/:force?`],
  ddoMetadataQuery: ["POST", `${A}/assets/metadata/query`],
  getDDOState: ["GET", `${A}/state/ddo`],
  fileInfo: ["POST", `${S}/fileInfo`],
  computeEnvironments: ["GET", `${S}/computeEnvironments`],
};

/** Routes of the compute and file-access part (off with `compute: false`). */
const COMPUTE: Record<string, [string, string]> = {
  validateDDO: ["POST", `${A}/assets/ddo/validate`],
  encrypt: ["POST", `${S}/encrypt`],
  decrypt: ["POST", `${S}/decrypt`],
  initialize: ["GET", `${S}/initialize`],
  download: ["GET", `${S}/download`],
  initializeCompute: ["POST", `${S}/initializeCompute`],
  freeCompute: ["POST", `${S}/freeCompute`],
  computeStart: ["POST", `${S}/compute`],
  computeStatus: ["GET", `${S}/compute`],
  computeResult: ["GET", `${S}/computeResult`],
  generateAuthToken: ["POST", `${S}/auth/token`],
};

/**
 * The map the sandbox node sends: only the routes it serves.
 *
 * @param compute Whether the compute and file-access routes are mounted.
 * @returns Name to `[METHOD, path]`.
 */
export function nodeServiceEndpoints(compute: boolean): Record<string, [string, string]> {
  return compute ? { ...CATALOGUE, ...COMPUTE } : { ...CATALOGUE };
}
