import { createHash } from "node:crypto";
import { runSummary } from "./_computation.ts";

/** A result file the sandbox publishes. */
export interface SandboxResult {
  /** Name of the result file. */
  filename: string;
  /** Result type, as the spec names it (`output`, `algorithmLog`, ...). */
  type: string;
  /** The file's bytes. */
  content: Uint8Array;
}

/** One job inside the sandbox. */
export interface SandboxJob {
  /** Address that started the job. */
  owner: string;
  /** The job's id (the short form, without the owner's hash prefix). */
  jobId: string;
  /** Id of the environment the job runs in. */
  environment: string;
  /** DID of the first dataset, or null for an algorithm-only job. */
  did: string | null;
  /** When the job was created, in ms since the epoch. */
  createdMs: number;
  /** Maximum run time, in seconds. */
  maxJobDuration: number;
  /** Resources requested, by id. */
  resources: { id: string; amount: number }[];
  /** Other addresses allowed to read the job. */
  additionalViewers: string[];
  /** The status codes the job goes through, one per step. */
  plan: number[];
  /** Exit code the algorithm ends with. */
  exitCode: number;
  /** Whether the job ends killed for memory. */
  oomKilled: boolean;
  /** Result files, available once the job finishes. */
  results: SandboxResult[];
  /** A paid job's payment; undefined for a free job. */
  payment?: JobInput["payment"];
  /** The step at which a stop request ends the job (see {@linkcode JobEngine.stop}). */
  stoppedAtStep?: number;
}

/** What a new job runs. */
export interface JobInput {
  /** Address that started the job. */
  owner: string;
  /** Id of the environment the job runs in. */
  environment: string;
  /** Each dataset's DID, its files joined as one CSV, and the files themselves (for the configuration log). */
  datasets: { did: string; csv: string; files?: { name: string; bytes: Uint8Array }[] }[];
  /** Container image of the algorithm. */
  algorithmImage: string;
  /** Custom data passed to the algorithm. */
  algocustomdata?: Record<string, unknown>;
  /** Resources requested, by id. */
  resources: { id: string; amount: number }[];
  /** Maximum run time, in seconds. */
  maxJobDuration: number;
  /** Other addresses allowed to read the job. */
  additionalViewers: string[];
  /** Result file names to use instead of the usual ones, by type (fault switch). */
  filenames?: Record<string, string>;
  /**
   * A paid job's payment: chain, token and the order transactions it runs
   * on; for an environment that charges for resources, the escrow lock
   * (base units) and what happened to it at the end.
   */
  payment?: {
    chainId: number;
    token: string;
    orders: string[];
    escrow?: { payer: string; locked: bigint; settled?: "claimed" | "left" };
  };
  /** The job's id, when the node made it before the start (to lock its price); default a new one. */
  jobId?: string;
}

const TEXT: Record<number, string> = {
  1: "Job queued",
  10: "Pulling algorithm image",
  20: "Configuring volumes",
  30: "Provisioning data",
  40: "Running algorithm",
  41: "Algorithm failed",
  50: "Filtering results",
  60: "Publishing results",
  70: "Job finished",
  71: "Job settling",
};

const SUCCESS_PLAN = [1, 10, 20, 30, 40, 50, 60, 71, 71, 70];
const FAILURE_PLAN = [1, 10, 20, 30, 40, 41];
const encoder = new TextEncoder();

/**
 * Moves sandbox jobs through real status codes on a clock: one step every
 * `stepMs` (queued, pulling image, configuring volumes, provisioning data,
 * running, filtering, publishing, settling 71, finished 70; or algorithm
 * failed 41 with its exit code and OOM flag). The computation itself runs at
 * the start and its result files appear once the job has finished or failed.
 *
 * @example A job that finishes after its steps
 * ```ts
 * let now = 0;
 * const engine = new JobEngine({ stepMs: 10, now: () => now });
 * const job = engine.start({
 *   owner: "0x0000000000000000000000000000000000000001", environment: "c-e",
 *   datasets: [{ did: "did:op:1", csv: "a\n1\n2\n" }], algorithmImage: "python:3.11",
 *   resources: [{ id: "ram", amount: 1 }], maxJobDuration: 60, additionalViewers: [],
 * });
 * now = 1_000;
 * console.log(engine.view(job).status); // 70
 * ```
 */
export class JobEngine {
  readonly #jobs = new Map<string, SandboxJob>();
  readonly #stepMs: number;
  readonly #now: () => number;
  #counter = 0;

  /**
   * Creates an engine with no jobs; each job moves one status on per `stepMs` (2 s by default).
   *
   * @param options Time per status step and the clock.
   */
  constructor(options: { stepMs?: number; now?: () => number } = {}) {
    this.#stepMs = options.stepMs ?? 2_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Starts a job: runs the computation and plans its statuses.
   *
   * @param input What to run.
   * @returns The job.
   */
  start(input: JobInput): SandboxJob {
    const createdMs = this.#now();
    const ram = input.resources.find((r) => r.id === "ram")?.amount ?? 1;
    const run = runSummary(input.datasets, input.algocustomdata, ram);
    const jobId = input.jobId ?? this.newJobId();
    const names = { ...DEFAULT_NAMES, ...input.filenames };
    const files: [string, string | undefined][] = [
      [
        "imageLog",
        `Pulling ${input.algorithmImage}\nDigest: sha256:${"ab".repeat(32)}\nStatus: Downloaded\n`,
      ],
      [
        "configurationLog",
        `resources: ${JSON.stringify(input.resources)}\ninputs: ${
          input.datasets.map((d) => d.did).join(", ")
        }\n` + inputLines(input.datasets),
      ],
      ["algorithmLog", run.log],
      ["output", run.output],
      ["publishLog", run.exitCode === 0 ? "published 1 output file\n" : undefined],
    ];
    const job: SandboxJob = {
      owner: input.owner,
      jobId,
      environment: input.environment,
      did: input.datasets[0]?.did ?? null,
      createdMs,
      maxJobDuration: input.maxJobDuration,
      resources: input.resources,
      additionalViewers: input.additionalViewers,
      plan: run.exitCode === 0 ? SUCCESS_PLAN : FAILURE_PLAN,
      exitCode: run.exitCode,
      oomKilled: run.oomKilled,
      results: files
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([type, text]) => ({ type, filename: names[type], content: encoder.encode(text) })),
      payment: input.payment,
    };
    this.#jobs.set(jobId, job);
    return job;
  }

  /**
   * A fresh job id, as `start` makes one.
   *
   * @returns The short id.
   */
  newJobId(): string {
    return crypto.randomUUID().replaceAll("-", "").slice(0, 32) + (++this.#counter).toString(16);
  }

  /**
   * Every job the engine holds.
   *
   * @returns The jobs.
   */
  all(): SandboxJob[] {
    return [...this.#jobs.values()];
  }

  /**
   * A job by short id.
   *
   * @param jobId The short id.
   * @returns The job, or undefined.
   */
  get(jobId: string): SandboxJob | undefined {
    return this.#jobs.get(jobId);
  }

  /**
   * Every job an address may see (owner as sent, compared exactly; or a viewer).
   *
   * @param address The consumer address as sent.
   * @returns The jobs.
   */
  visibleTo(address: string): SandboxJob[] {
    return [...this.#jobs.values()].filter((job) =>
      job.owner === address || job.additionalViewers.includes(address)
    );
  }

  /**
   * The status code of a job now.
   *
   * @param job The job.
   * @returns The code.
   */
  status(job: SandboxJob): number {
    return job.plan[Math.min(this.#step(job), job.plan.length - 1)];
  }

  /** The step a job is at now, counted from its start. */
  #step(job: SandboxJob): number {
    return Math.floor((this.#now() - job.createdMs) / this.#stepMs);
  }

  /**
   * Asks a job to stop, as ocean-node's `stopRequested`: a job that has not
   * ended ends at its next step, finished (70) with exit code 137 and no
   * output file published (its logs are). A job that has ended is
   * left as it is.
   *
   * @param job The job.
   * @returns Whether the request changed the job.
   */
  stop(job: SandboxJob): boolean {
    if ([70, 71, 41].includes(this.status(job))) return false;
    const at = this.#step(job) + 1;
    const ran = job.plan.slice(0, at).includes(40);
    job.plan = [...job.plan.slice(0, at), 70];
    job.stoppedAtStep = at;
    job.exitCode = 137;
    job.oomKilled = false;
    job.results = job.results.filter((r) =>
      r.type === "imageLog" || r.type === "configurationLog" || (ran && r.type === "algorithmLog")
    );
    return true;
  }

  /**
   * When the algorithm step of a job starts and ends on the engine's clock,
   * in ms since the epoch (undefined when the job never runs its algorithm).
   *
   * @param job The job.
   * @returns The span of status 40 and the clock's time now.
   */
  running(job: SandboxJob): { from: number; until: number; now: number } | undefined {
    const step = job.plan.indexOf(40);
    if (step < 0) return undefined;
    const from = job.createdMs + step * this.#stepMs;
    return { from, until: from + this.#stepMs, now: this.#now() };
  }

  /**
   * The job as `GET /api/services/compute` lists it now.
   *
   * @param job The job.
   * @returns The ComputeJob record.
   */
  view(job: SandboxJob): Record<string, unknown> & { status: number } {
    const status = this.status(job);
    const at = (code: number) => {
      const step = job.plan.indexOf(code);
      return step < 0 ? undefined : job.createdMs + step * this.#stepMs;
    };
    const seconds = (ms: number | undefined) => ms === undefined ? "0" : (ms / 1000).toFixed(3);
    const ended = status === 70 || status === 71 || status === 41;
    const running = status >= 40;
    const endMs = at(job.plan[job.plan.indexOf(40) + 1]);
    return {
      owner: job.owner,
      jobId: job.jobId,
      did: job.did,
      environment: job.environment,
      dateCreated: seconds(job.createdMs),
      dateFinished: ended ? seconds(endMs) : null,
      algoStartTimestamp: running ? seconds(at(40)) : "0",
      algoStopTimestamp: status > 40 ? seconds(endMs) : "0",
      status,
      statusText: TEXT[status] ?? "Unknown",
      isFree: job.payment === undefined,
      // A paid job's agreement is its first dataset's order, as before escrow payments.
      ...(job.payment
        ? {
          agreementId: job.payment.orders[1] ?? job.payment.orders[0],
          payment: { chainId: job.payment.chainId, token: job.payment.token },
        }
        : {}),
      maxJobDuration: job.maxJobDuration,
      resources: job.resources,
      terminationDetails: ended
        ? { exitCode: job.exitCode, OOMKilled: job.oomKilled }
        : { exitCode: null, OOMKilled: null },
      results: ended
        ? job.results.map((r, index) => ({
          filename: r.filename,
          filesize: r.content.byteLength,
          type: r.type,
          index,
        }))
        : [],
    };
  }

  /**
   * Jobs of an environment that have not ended.
   *
   * @param environment The environment id.
   * @returns How many.
   */
  activeInEnvironment(environment: string): number {
    return [...this.#jobs.values()].filter((job) =>
      job.environment === environment && ![70, 71, 41].includes(this.status(job))
    ).length;
  }

  /**
   * Jobs of an owner that have not ended.
   *
   * @param owner The owner as sent.
   * @returns How many.
   */
  activeJobs(owner: string): number {
    return this.visibleTo(owner).filter((job) =>
      job.owner === owner && ![70, 71, 41].includes(this.status(job))
    ).length;
  }
}

const DEFAULT_NAMES: Record<string, string> = {
  imageLog: "image.log",
  configurationLog: "configuration.log",
  algorithmLog: "algorithm.log",
  output: "summary.json",
  publishLog: "publish.log",
};

/** One line per input file: where the job saw it, its SHA-256 and its size. */
function inputLines(datasets: JobInput["datasets"]): string {
  return datasets.flatMap((dataset) =>
    (dataset.files ?? []).map((file) =>
      `/data/inputs/${dataset.did}/${file.name} sha256:${
        createHash("sha256").update(file.bytes).digest("hex")
      } ${file.bytes.byteLength} bytes\n`
    )
  ).join("");
}
