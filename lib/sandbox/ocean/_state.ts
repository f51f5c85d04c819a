/**
 * What the sandbox node knows: the indexed DDOs, the indexing states, the
 * one nonce store, the one list of compute environments, the fault
 * switches. The compute routes share these, never a copy.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";
import type { NonceStore } from "./compute/nonce_store.ts";
import type { SandboxEnvironment } from "./compute/trial_environment.ts";
import type { UnlistedUse } from "./_spec_parameters.ts";

/** The indexing state of one DID as the sandbox indexer holds it. */
export interface IndexEntry {
  /** The DDO (served only once valid and indexed). */
  ddo: Ddo;
  /** Transaction of the publication. */
  txId: string;
  /** State requests still answered with the empty 404 (not seen yet). */
  pendingPolls: number;
  /** The indexer's error, or a single space for none. */
  error: string;
  /** Whether the indexer stored it. */
  valid: boolean;
}

/** The fault switches, named after the fault. */
export interface OceanFaults {
  /** Every request answers the bot-protection 403 with `cf-mitigated: challenge`. */
  botChallenge: boolean;
  /** The query endpoint ignores paging and always answers this many first hits (deployed nodes do). */
  fixedPageSize: number | null;
  /** The query endpoint answers 500 with a plain-text error. */
  queryFailure: boolean;
  /** A second collection repeats the first this many DDOs (to exercise de-duplication). */
  duplicateCollection: number;
}

/** The whole sandbox state. */
export interface OceanState {
  /** The base URL once listening. */
  url: string;
  /** DDOs in the search index, in publication order. */
  indexed: Ddo[];
  /** Index entries by DID. */
  entries: Map<string, IndexEntry>;
  /** The one nonce store: GET nonce reads it, signed requests check and raise it. */
  nonces: NonceStore;
  /** The one list of compute environments (their free allowlists included). */
  environments: SandboxEnvironment[];
  /** Jobs of an environment that have not ended (0 without the compute routes). */
  activeJobs: (environment: string) => number;
  /** Fault switches. */
  faults: OceanFaults;
  /** Requests with query parameters or body fields the spec does not list (ignored, recorded). */
  unlisted: UnlistedUse[];
  /** NodeInfo's `serviceEndpoints` (name to method and path), or undefined to leave it out. */
  serviceEndpoints: Record<string, [string, string]> | undefined;
  /** Fields the spec does not list, added to NodeInfo, every DDO and environment sent (shapes seed). */
  extraFields: Record<string, unknown>;
}

/** Builds the state from the seeded DDOs. */
export function createState(
  ddos: Ddo[],
  nonces: NonceStore,
  environments: SandboxEnvironment[],
): OceanState {
  const entries = new Map<string, IndexEntry>();
  for (const ddo of ddos) {
    entries.set(ddo.id, {
      ddo,
      txId: eventTx(ddo) ?? "",
      pendingPolls: 0,
      error: " ",
      valid: true,
    });
  }
  return {
    url: "",
    indexed: [...ddos],
    entries,
    nonces,
    environments,
    activeJobs: () => 0,
    faults: {
      botChallenge: false,
      fixedPageSize: null,
      queryFailure: false,
      duplicateCollection: 0,
    },
    unlisted: [],
    serviceEndpoints: undefined,
    extraFields: {},
  };
}

/** The publication's transaction: `event.txid` as ocean-node's indexer writes it, or the spec's `event.tx`. */
export function eventTx(ddo: Ddo): string | undefined {
  const event = ddo.indexedMetadata?.event;
  const tx = event?.txid ?? event?.tx;
  return typeof tx === "string" ? tx : undefined;
}

/** A plain-text answer. */
export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  });
}

/** A JSON answer. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
