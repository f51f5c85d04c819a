/**
 * Types of the compute-to-data interface (spec sections 2 and 4): jobs, their
 * results, the asset references and resource requests of a start request,
 * and the part of a compute environment the pre-checks read.
 *
 * @module
 */

/** The type of one result file. `publishLog` is sent by current nodes besides the four the spec lists. */
export type ComputeResultType =
  | "output"
  | "algorithmLog"
  | "configurationLog"
  | "imageLog"
  | "publishLog";

/** One result file of a job, as the job list describes it. */
export interface ComputeResultFile {
  /** The name the node gives the file (untrusted: sanitised before saving). */
  filename: string;
  /** Size in bytes. */
  filesize: number;
  /** What the file is. */
  type: ComputeResultType | string;
  /** The node's own index; the download uses the position in `results`. */
  index?: number;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A compute job as `GET /api/services/compute` and `freeCompute` return it. */
export interface ComputeJob {
  /** Address that started the job, as it was sent. */
  owner: string;
  /** The short job id. */
  jobId: string;
  /** The first dataset's DID, or null. */
  did: string | null;
  /** `<cluster hash>-<environment hash>`. */
  environment: string;
  /** Unix time with milliseconds, as a string. */
  dateCreated: string;
  /** Unix time with milliseconds, or null while the job runs. */
  dateFinished: string | null;
  /** When the algorithm started ("0" before). */
  algoStartTimestamp?: string;
  /** When the algorithm stopped ("0" before). */
  algoStopTimestamp?: string;
  /** Status code, see {@linkcode JOB_STATUSES}. */
  status: number;
  /** The node's status text. */
  statusText: string;
  /** Whether the job is free. */
  isFree?: boolean;
  /** Longest run, seconds. */
  maxJobDuration?: number;
  /** Resources granted. */
  resources?: ResourceRequest[];
  /** How the algorithm ended. */
  terminationDetails?: { exitCode?: number | null; OOMKilled?: boolean | null };
  /** Result files, once published. */
  results?: ComputeResultFile[];
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A dataset or algorithm of a compute job. */
export interface ComputeAssetRef {
  /** The asset's DID. */
  documentId: string;
  /** The compute service id. */
  serviceId: string;
  /** Parameters for the asset, when it defines them. */
  userdata?: Record<string, unknown>;
  /** Parameters for the algorithm (algorithm only). */
  algocustomdata?: Record<string, unknown>;
}

/** An amount of one resource: CPUs, or GiB of ram and disk. */
export interface ResourceRequest {
  /** `cpu`, `ram`, `disk` or `gpu`. */
  id: string;
  /** The amount. */
  amount: number;
}

/** One resource of an environment, as far as the pre-checks read it. */
export interface EnvironmentResource {
  /** `cpu`, `ram`, `disk` or `gpu`. */
  id: string;
  /** Most one job may ask for. */
  max?: number;
  /** Least one job must ask for. */
  min?: number;
  /** Amount in all. */
  total?: number;
  /** Amount in use. */
  inUse?: number;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** Who may use an environment or its free tier. */
export interface EnvironmentAccess {
  /** Allowed addresses; empty with no lists means anyone. */
  addresses?: string[];
  /** Access-list contracts, or null. */
  accessLists?: unknown[] | null;
}

/**
 * The part of a compute environment (`GET /api/services/computeEnvironments`)
 * the pre-checks of {@linkcode OceanNode.startFreeCompute} read. The catalogue's full
 * `ComputeEnvironment` type fits it.
 */
export interface ComputeEnvironmentLimits {
  /** `<cluster hash>-<environment hash>`. */
  id: string;
  /** Resources of the environment (fill in figures the free tier leaves out). */
  resources?: EnvironmentResource[];
  /** Free jobs running now, of anyone (the node's spelling); checked against `free.maxJobs`. */
  runningfreeJobs?: number;
  /** The free tier, absent when there are no free jobs. */
  free?: {
    access?: EnvironmentAccess;
    minJobDuration?: number;
    maxJobDuration?: number;
    maxJobs?: number;
    resources?: EnvironmentResource[];
    [key: string]: unknown;
  } | null;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}
