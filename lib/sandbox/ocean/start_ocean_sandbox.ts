/**
 * A local Ocean node that follows the spec for the catalogue endpoints, with
 * seeded realistic DDOs, so the demo, the notebooks and the tests run
 * offline. One handler per endpoint; fault switches named after the fault.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";
import { serveLocal } from "../_serve.ts";
import { handleDdo, handleInfo, handleNonce, handleState } from "./_asset_handlers.ts";
import { handleEnvironments } from "./_compute_handlers.ts";
import { handleFile, handleFileInfo } from "./_file_handlers.ts";
import { handleQuery } from "./_query_handler.ts";
import { createState, type OceanFaults, text } from "./_state.ts";
import { seedAssets } from "./assets_seed.ts";

/** Options of {@linkcode startOceanSandbox}. */
export interface OceanSandboxOptions {
  /** Number of seeded DDOs. Default 2,000 (use 20,000 for the bench). */
  count?: number;
  /** Seed of the DDOs. */
  seed?: number;
  /** DDOs to serve instead of the seeded ones. */
  ddos?: Ddo[];
  /** Stored nonces by address. */
  nonces?: Record<string, string>;
  /** Addresses allowed to start free compute jobs. */
  freeAllowlist?: string[];
  /** Most requests answered (a guard against runaway loops). */
  maxRequests?: number;
}

/** How a published asset goes through the sandbox indexer. */
export interface PublishOptions {
  /** State requests answered with the empty 404 before the indexer has seen it. Default 0. */
  pollsBeforeSeen?: number;
  /** The indexer rejects it with this error text. */
  rejectWith?: string;
  /** Transaction id of the publication. Default: the DDO's event tx. */
  txId?: string;
}

/** A running sandbox node. */
export interface OceanSandbox extends OceanFaults {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The DDOs the node serves (seeded), in publication order. */
  readonly ddos: readonly Ddo[];
  /** Requests answered so far. */
  readonly requestCount: number;
  /** Adds an asset as if just published; see {@linkcode PublishOptions}. */
  publish(ddo: Ddo, options?: PublishOptions): void;
  /** Stores a nonce for an address. */
  setNonce(address: string, nonce: string): void;
  /** Stops the server. */
  close(): Promise<void>;
  /** Same as close, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** The sandbox's free-tier allowlist unless given. */
export const SANDBOX_FREE_ALLOWLIST = [
  "0x1bE0BbB6C7f2B4a5d0E1cB2F0c3D4E5F6a7B8C9d",
  "0x9F8e7D6c5B4a39281706f5E4d3C2b1A0f9E8d7C6",
];

/**
 * Starts the sandbox node on 127.0.0.1 with an ephemeral port.
 *
 * Endpoints: `GET /`, `GET /api/services/nonce`, `GET /api/aquarius/assets/ddo/{did}`,
 * `POST /api/aquarius/assets/metadata/query`, `GET /api/aquarius/state/ddo`,
 * `POST /api/services/fileInfo`, `GET /api/services/computeEnvironments`,
 * `GET /files/{name}`. Fault switches: `botChallenge`, `fixedPageSize`,
 * `queryFailure`, `duplicateCollection` (set them on the returned object).
 *
 * @param options Number of DDOs, seed, nonces, allowlist.
 * @returns The running node; close it when done.
 *
 * @example A node with 50 assets
 * ```ts
 * import { startOceanSandbox } from "./start_ocean_sandbox.ts";
 * const node = startOceanSandbox({ count: 50 });
 * try {
 *   const response = await fetch(`${node.url}/`);
 *   console.log((await response.json()).version); // "4.2.0"
 * } finally {
 *   await node.close();
 * }
 * ```
 */
export function startOceanSandbox(options: OceanSandboxOptions = {}): OceanSandbox {
  const ddos = options.ddos ?? seedAssets({ count: options.count, seed: options.seed });
  const state = createState(ddos, options.freeAllowlist ?? SANDBOX_FREE_ALLOWLIST);
  for (const [address, nonce] of Object.entries(options.nonces ?? {})) {
    state.nonces.set(address.toLowerCase(), nonce);
  }

  const route = (request: Request): Response | Promise<Response> => {
    if (state.faults.botChallenge) {
      return new Response("<!DOCTYPE html><title>Just a moment...</title>", {
        status: 403,
        headers: { "content-type": "text/html; charset=UTF-8", "cf-mitigated": "challenge" },
      });
    }
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method;
    if (method === "GET" && path === "/") return handleInfo();
    if (method === "GET" && path === "/api/services/nonce") return handleNonce(url, state);
    if (method === "GET" && path.startsWith("/api/aquarius/assets/ddo/")) {
      return handleDdo(decodeURIComponent(path.slice("/api/aquarius/assets/ddo/".length)), state);
    }
    if (method === "POST" && path === "/api/aquarius/assets/metadata/query") {
      return handleQuery(request, state);
    }
    if (method === "GET" && path === "/api/aquarius/state/ddo") return handleState(url, state);
    if (method === "POST" && path === "/api/services/fileInfo") {
      return handleFileInfo(request, state);
    }
    if (method === "GET" && path === "/api/services/computeEnvironments") {
      return handleEnvironments(url, state);
    }
    if (method === "GET" && path.startsWith("/files/")) return handleFile(path.slice(7));
    return text(`Cannot ${method} ${path}`, 404);
  };

  const server = serveLocal(route, { maxRequests: options.maxRequests });
  state.url = server.url;
  const faults = state.faults;
  return {
    url: server.url,
    ddos,
    get requestCount() {
      return server.requestCount;
    },
    get botChallenge() {
      return faults.botChallenge;
    },
    set botChallenge(value: boolean) {
      faults.botChallenge = value;
    },
    get fixedPageSize() {
      return faults.fixedPageSize;
    },
    set fixedPageSize(value: number | null) {
      faults.fixedPageSize = value;
    },
    get queryFailure() {
      return faults.queryFailure;
    },
    set queryFailure(value: boolean) {
      faults.queryFailure = value;
    },
    get duplicateCollection() {
      return faults.duplicateCollection;
    },
    set duplicateCollection(value: number) {
      faults.duplicateCollection = value;
    },
    publish(ddo, publish = {}) {
      const pending = publish.pollsBeforeSeen ?? 0;
      const valid = publish.rejectWith === undefined;
      state.entries.set(ddo.id, {
        ddo,
        txId: publish.txId ?? ddo.indexedMetadata?.event?.tx ?? "",
        pendingPolls: pending,
        error: publish.rejectWith ?? " ",
        valid,
      });
      if (valid && pending === 0) state.indexed.push(ddo);
    },
    setNonce(address, nonce) {
      state.nonces.set(address.toLowerCase(), nonce);
    },
    close: server.close,
    [Symbol.asyncDispose]: server.close,
  };
}
