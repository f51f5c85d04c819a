/**
 * The two forms of a compute job id, worked out by hand as ocean-node reads
 * them: a start answers `<cluster hash>-<jobId>` (the spec's seeds answer the
 * short id), the cluster hash is the environment id before its first `-`,
 * and the node splits a long id at its first `-`. Tests build their
 * expectations with these rather than with tidepool's own id code, so that
 * a bug there cannot check itself.
 */

/** The cluster hash of an environment id: its part before the first `-`. */
export function clusterOf(environment: string): string {
  return environment.split("-")[0];
}

/** The engine's own id of an id a node answered, long or short: what follows the first `-`. */
export function shortJobId(answered: string): string {
  return answered.slice(answered.indexOf("-") + 1);
}

/** `<cluster hash>-<jobId>` of a job, whichever form its `jobId` has. */
export function longJobId(job: { environment: string; jobId: string }): string {
  return `${clusterOf(job.environment)}-${shortJobId(job.jobId)}`;
}
