/**
 * The services a notebook talks to and the variables that point it at real
 * ones: what opening the services and their recording both name.
 *
 * @module
 */

/** The environment variables that point the notebooks and the demo at real services. */
export const SERVICE_VARIABLES = {
  ocean: "TIDEPOOL_OCEAN_NODE",
  subgraph: "TIDEPOOL_SUBGRAPH",
  archive: "TIDEPOOL_ARCHIVE",
  expressions: "TIDEPOOL_EXPRESSIONS",
} as const;

/** The name of each service a notebook talks to. */
export type ServiceName = keyof typeof SERVICE_VARIABLES;
