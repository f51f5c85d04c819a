/**
 * The retry loop of one request: each attempt waits for its host's pacer,
 * runs under the per-attempt timeout, and is repeated with backoff (or the
 * server's Retry-After) while the answer is retryable and time is left.
 *
 * @module
 */

import { NetworkError, TidepoolError, TimeoutError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";
import { isChallenge } from "./error_from_response.ts";
import type { HostPacer } from "./pacer.ts";
import { bufferedResponse, type HttpResponse } from "./response.ts";
import {
  backoffDelay,
  bodyWaitMs,
  RETRYABLE_STATUSES,
  retryAfterMs,
  type RetryPolicy,
} from "./retry.ts";
import { sleep } from "./sleep.ts";

/** Answers that say the host is overloaded: they shrink its window of requests in flight. */
const OVERLOAD_STATUSES: ReadonlySet<number> = new Set([429, 503]);
import { networkCause, systemMessage } from "./_network_cause.ts";

/** What the loop of one request runs under. */
export interface RetryLoop {
  /** How often and how long to retry. */
  policy: RetryPolicy;
  /** Time limit of one attempt. */
  timeoutMs: number;
  /** The pacer of the request's host. */
  pacer: HostPacer;
  /** Cancels the whole request (the client's and the request's signals). */
  signal?: AbortSignal;
  /** Statuses handed back at once instead of retried. */
  acceptStatus?: readonly number[];
  /** Answers a retry would not change (the request's `final`): handed back at once. */
  final?: (response: HttpResponse) => boolean;
  /** Whether the body is read after the loop (the pacer slot is freed a tick later). */
  streaming?: boolean;
}

/** The last attempt's answer, buffered, with the raw `Response` beside it. */
export type AnsweredAttempt = HttpResponse & { answer: Response };

/**
 * Runs `attempt` until it answers with a status that is not retried, the
 * retries are used up, or the time is. A network failure or timeout is
 * thrown as a typed error once no retry is left.
 */
export async function withRetries(
  method: string,
  url: URL,
  retryable: boolean,
  attempt: (signal: AbortSignal) => Promise<{ answer: Response; bytes?: Uint8Array }>,
  loop: RetryLoop,
): Promise<AnsweredAttempt> {
  const { policy, timeoutMs, pacer, acceptStatus, streaming } = loop;
  // The budget's clock starts when the first attempt has its slot: waiting behind the
  // caller's own requests is not time the server failed this one.
  let started: number | undefined;
  /** Failures that use up a retry: every one but a refusal while the host serves others. */
  let counted = 0;
  let servedBefore = pacer.servedCount;
  const outer = loop.signal;
  // Redacted only when an error needs it, not on every attempt.
  const printable = () => redact(url.toString());
  for (let tries = 1;; tries++) {
    const slot = await pacer.acquire(outer, tries > 1);
    started ??= Date.now();
    // One controller per attempt, aborted by the timeout or by the outer
    // signal through a listener: `AbortSignal.any` per attempt costs a
    // dependent signal held through weak references, which the collector
    // must process, on every page of a long read.
    const attemptControl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attemptControl.abort(new DOMException("timeout", "TimeoutError"));
    }, timeoutMs);
    const onOuterAbort = () => attemptControl.abort(outer!.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener("abort", onOuterAbort, { once: true });
    const signal = attemptControl.signal;
    let failure: unknown;
    let wait: number | undefined;
    let overload = false;
    try {
      const { answer, bytes } = await attempt(signal);
      const result = {
        answer,
        ...bufferedResponse({
          status: answer.status,
          headers: answer.headers,
          url: answer.url || url.toString(),
          redirected: answer.redirected,
          fromCache: false,
          attempts: tries,
          bytes: bytes ?? new Uint8Array(),
          receivedAt: new Date().toISOString(),
        }),
      };
      overload = OVERLOAD_STATUSES.has(answer.status) && !isChallenge(result);
      if (overload) {
        wait = retryAfterMs(answer.headers.get("retry-after"));
        if (wait === undefined && answer.status === 429) wait = bodyWaitMs(result.text());
        // The host is told apart from the request: every request to it slows down.
        // A wait past one backoff's ceiling is not imposed on the other requests: this one gives up.
        pacer.overloaded(slot, wait !== undefined && wait <= policy.maxDelayMs ? wait : undefined);
      } else pacer.answered();
      if (!RETRYABLE_STATUSES.has(answer.status)) pacer.served();
      if (!RETRYABLE_STATUSES.has(answer.status) || !retryable) return result;
      // A challenge (some layers send it as 503) will not pass on a retry.
      if (isChallenge(result)) return result;
      if (acceptStatus?.includes(answer.status)) return result;
      if (loop.final?.(result)) return result;
      failure = result;
    } catch (error) {
      if (outer?.aborted) throw outer.reason;
      if (timedOut) {
        failure = new TimeoutError(
          `Request timed out after ${timeoutMs} ms: ${method} ${printable()}`,
          {
            hint:
              "The service is slow or unreachable; raise timeoutMs in the client options or try again later",
            cause: error,
          },
        );
      } else if (error instanceof TidepoolError) {
        throw error;
      } else {
        // No server answered: say what happened here, never "Server said".
        const cause = networkCause(error, url);
        failure = new NetworkError(
          `Cannot reach the service: ${cause.what} (${method} ${printable()})`,
          {
            details: systemMessage(error),
            detailsLabel: "The system said",
            hint: cause.hint,
            cause: error,
          },
        );
      }
      if (!retryable) throw failure;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
      if (!streaming) pacer.release();
      else queueMicrotask(() => pacer.release());
    }

    // A 429 or 503 while the host serves other requests is a busy server sharing its
    // capacity, not a failure of this request: it uses up no retry, and the time budget
    // bounds it. A fixed count would fail the request that keeps landing on the refused
    // share (every third request, say) while every other one completes.
    const shared = overload && pacer.servedCount > servedBefore;
    servedBefore = pacer.servedCount;
    if (!shared) counted++;
    const delay = wait ?? backoffDelay(policy, tries - 1);
    const elapsed = Date.now() - started;
    if (
      policy.retries === 0 || counted > policy.retries || elapsed + delay > policy.maxElapsedMs
    ) {
      if (failure instanceof Error) throw failure;
      return failure as AnsweredAttempt;
    }
    // A pause the pacer holds (the server's Retry-After) is waited out in the pacer's queue,
    // at its head: sleeping apart would let fresh requests take the slots first.
    const held = overload && wait !== undefined && wait <= policy.maxDelayMs && pacer.pausing;
    if (!held) await sleep(delay, outer);
  }
}
