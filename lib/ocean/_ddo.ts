/**
 * Reading one DDO and its indexing state, and waiting until the indexer has
 * stored (or rejected) a newly published asset.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import {
  httpErrorFields,
  NotFoundError,
  ProtocolError,
  TidepoolError,
  TimeoutError,
} from "../errors/errors.ts";
import { type PollOptions, pollUntil } from "../http/poll_until.ts";
import type { Ddo } from "./ddo.ts";
import type { DdoState, DdoStateKey } from "./types.ts";
import { checkAddress, checkDid } from "./_validate.ts";
import { assetAtTopLevel } from "./_ddo_forms.ts";

/**
 * Reads one DDO, a 5.0.0 one with its asset also at the top level (see
 * `assetAtTopLevel`); a 404 says the asset is not indexed and points to ddoState.
 */
export async function fetchDdo(
  http: HttpClient,
  did: string,
  live = false,
  signal?: AbortSignal,
): Promise<Ddo> {
  checkDid(did);
  try {
    const response = await http.request({
      path: `/api/aquarius/assets/ddo/${encodeURIComponent(did)}`,
      cacheable: !live,
      signal,
    });
    return assetAtTopLevel(response.json<Ddo>());
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new NotFoundError(
        `Asset is not indexed: ${did} (not yet, or never; the node answered 404)`,
        {
          ...httpErrorFields(error),
          hint:
            `Call ddoState({ did: "${did}" }) to see whether the indexer saw it and why it rejected it, ` +
            "or waitForIndexed() right after publishing",
        },
      );
    }
    throw error;
  }
}

const STATE_KEYS = ["did", "didPrefix", "nft", "txId"];
const DID_PREFIX = /^did:[a-z0-9]+:[0-9a-f]{1,64}$/;
const WHOLE_DID = /^did:[a-z0-9]+:[0-9a-f]{64}$/;

/** Checks that exactly one key is given and returns it as a query. */
function stateQuery(key: DdoStateKey): Record<string, string> {
  const entries = Object.entries(key ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length !== 1 || !STATE_KEYS.includes(entries[0][0])) {
    throw new TidepoolError(
      `Cannot look up an indexing state: give exactly one of did, didPrefix, nft or txId, got ${
        entries.map(([name]) => name).join(", ") || "none"
      }`,
      { hint: 'For example ddoState({ did: "did:op:..." })' },
    );
  }
  const [name, value] = entries[0];
  if (typeof value !== "string" || value === "") {
    throw new TidepoolError(`Cannot look up an indexing state: ${name} must be a non-empty string`);
  }
  // The node matches `did` by prefix: a whole DID here, a prefix only when
  // the caller says so, so that a truncated DID never reads another asset.
  if (name === "did" && DID_PREFIX.test(value) && !WHOLE_DID.test(value)) {
    throw new TidepoolError(`Cannot look up an indexing state: ${value} is not a whole DID`, {
      hint:
        `To look it up by the start of the DID, as the node allows, pass { didPrefix: "${value}" }`,
    });
  }
  if (name === "did") checkDid(value);
  if (name === "didPrefix" && !DID_PREFIX.test(value)) {
    throw new TidepoolError(`Invalid DID prefix: ${value.slice(0, 120)}`, {
      hint: "A DID prefix is did:op: followed by 1 to 64 lowercase hex characters",
    });
  }
  if (name === "nft") checkAddress(value, "NFT address");
  return { [name === "didPrefix" ? "did" : name]: value };
}

/** Refuses a state that is not of the asset asked for: its DID must be the one, or start with the prefix. */
function checkStateMatches(key: DdoStateKey, state: Record<string, unknown>, url: string): void {
  const answered = String(state.did ?? state.id ?? "");
  const wrong = "did" in key
    ? answered !== key.did
    : "didPrefix" in key
    ? !answered.startsWith(key.didPrefix)
    : false;
  if (wrong) {
    const asked = "did" in key
      ? key.did
      : `a DID starting ${(key as { didPrefix: string }).didPrefix}`;
    throw new ProtocolError(
      `The node answered the indexing state of another asset: asked for ${asked}, got ${
        answered || "no DID"
      }`,
      {
        details: `${url}`,
        hint: "Check the node address; this answer cannot be trusted for the asset asked for",
      },
    );
  }
}

/** Reads the indexing state; `error` is null when the node sent its single space. */
export async function fetchDdoState(
  http: HttpClient,
  key: DdoStateKey,
  live = false,
  signal?: AbortSignal,
): Promise<DdoState> {
  const query = stateQuery(key);
  let response;
  try {
    response = await http.request({
      path: "/api/aquarius/state/ddo",
      query,
      cacheable: !live,
      signal,
    });
  } catch (error) {
    if (error instanceof NotFoundError) {
      const [[name, value]] = Object.entries(query);
      throw new NotFoundError(`The indexer has never seen this asset: ${name} ${value}`, {
        ...httpErrorFields(error),
        hint:
          "Right after publishing, wait for the indexer (waitForIndexed); otherwise check the chain, the " +
          "transaction and that the decryptor recorded on chain answers",
      });
    }
    throw error;
  }
  const state = response.json<Record<string, unknown>>();
  if (!state || typeof state !== "object" || typeof state.valid !== "boolean") {
    throw new ProtocolError("Unexpected indexing state answer: no valid field", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  checkStateMatches(key, state, response.url);
  const error = typeof state.error === "string" && state.error.trim() !== "" ? state.error : null;
  return { ...state, error } as DdoState;
}

/**
 * Options of `waitForIndexed`: the poll options every wait shares. `pollMs`
 * defaults to 2,000, `timeoutMs` to 300,000 (5 minutes); `signal` cancels
 * the pause and the poll in flight.
 */
export type WaitForIndexedOptions = PollOptions;

/** Polls the indexing state until the DDO is served, the indexer rejects it, or time runs out. */
export async function waitIndexed(
  http: HttpClient,
  target: string | { txId: string },
  options: WaitForIndexedOptions = {},
): Promise<Ddo> {
  const key: DdoStateKey = typeof target === "string" ? { did: checkDid(target) } : {
    txId: target?.txId,
  };
  stateQuery(key);
  const shown = "did" in key ? key.did : `transaction ${key.txId}`;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const task = http.progress(`waitForIndexed ${shown}`, { unit: "polls" });
  let last = "not seen by the indexer";
  let polls = 0;
  let failure: string | undefined;
  try {
    const ddo = await pollUntil(async (signal) => {
      const found = await pollIndexed(http, key, shown, signal);
      if (found instanceof TidepoolError) {
        failure = "rejected by the indexer";
        throw found;
      }
      if (typeof found !== "string") return { value: found };
      last = found;
      task.update(++polls, { detail: last });
      return undefined;
    }, {
      pollMs: options.pollMs ?? 2_000,
      timeoutMs,
      signal: options.signal,
      timedOut: () => {
        failure = "timed out";
        return new TimeoutError(
          `Asset not indexed after ${timeoutMs} ms: ${shown} (last state: ${last})`,
          {
            hint:
              "The indexer may be behind or may never index it (an unreachable decryptor); raise timeoutMs, " +
              "or check ddoState later",
          },
        );
      },
    });
    task.finish("indexed");
    return ddo;
  } catch (error) {
    task.fail(failure ?? (error instanceof Error ? error.message.split("\n")[0] : String(error)));
    throw error;
  }
}

/** One poll: the DDO once served, the indexer's rejection, or else how far it got. */
async function pollIndexed(
  http: HttpClient,
  key: DdoStateKey,
  shown: string,
  signal?: AbortSignal,
): Promise<Ddo | string | TidepoolError> {
  let state: DdoState;
  try {
    // A poll must see the node change: never answered from the cache.
    state = await fetchDdoState(http, key, true, signal);
  } catch (error) {
    if (error instanceof NotFoundError) return "not seen by the indexer";
    throw error;
  }
  if (!state.valid && state.error) {
    return new TidepoolError(`The indexer rejected the asset: ${shown}: ${state.error}`, {
      details: state.error,
      hint: state.error.includes("hash does not match")
        ? "The DDO was published unencrypted with a wrong metadata hash; republish it encrypted with a fixed client"
        : "Fix the DDO and publish it again; the node will not index it as it is",
    });
  }
  if (!state.valid) return "seen, not valid yet";
  try {
    return await fetchDdo(http, state.did || state.id, true, signal);
  } catch (error) {
    if (error instanceof NotFoundError) return "state valid, DDO not served yet";
    throw error;
  }
}
