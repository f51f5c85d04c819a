/**
 * What the record/replay cache may keep: only answers worth replaying.
 *
 * Every operation declares its policy where it is defined, beside its
 * request. An answer is stored only when it is successful (2xx), complete
 * and free of errors; answers that may change (a 404 for an asset not
 * indexed yet, an outage reported inside a 200) are never stored, because a
 * stored failure would outlive its cause. Signed requests, writes and live
 * polls are never stored at all.
 *
 * @module
 */

import type { HttpResponse } from "./response.ts";

/**
 * How the record/replay cache treats one operation's answers.
 *
 * @example A GraphQL operation: stored only when `errors` is absent
 * ```ts
 * import { answersOnly, type CachePolicy } from "./cache_policy.ts";
 * const GRAPHQL: CachePolicy = answersOnly("GraphQL query", (response) => {
 *   const body = response.json<{ errors?: unknown[] }>();
 *   return !body.errors?.length;
 * });
 * ```
 */
export interface CachePolicy {
  /** The operation, for messages. */
  readonly operation: string;
  /** `never`: not stored, and in replay mode refused (signed requests, writes, polls). */
  readonly store: "answers" | "never";
  /**
   * Whether a 2xx answer is complete and free of errors, so worth replaying.
   * Called only in the modes that store; an answer it rejects reaches the
   * caller as usual but is not kept.
   */
  readonly isAnswer?: (response: HttpResponse) => boolean | Promise<boolean>;
}

/**
 * A policy that stores successful answers the predicate accepts (and, for
 * JSON bodies, only those that parse: a cut-off body is a partial answer).
 *
 * @param operation The operation, for messages.
 * @param isAnswer Whether a 2xx answer is complete and error-free.
 * @returns The policy.
 *
 * @example Stored unless the body says `"partial": true`
 * ```ts
 * import { answersOnly } from "./cache_policy.ts";
 * const policy = answersOnly("report", (r) => r.json<{ partial?: boolean }>().partial !== true);
 * console.log(policy.store); // "answers"
 * ```
 */
export function answersOnly(
  operation: string,
  isAnswer?: (response: HttpResponse) => boolean | Promise<boolean>,
): CachePolicy {
  return { operation, store: "answers", isAnswer };
}

/**
 * A policy that never stores: for signed requests, writes and live polls.
 *
 * @param operation The operation, for messages.
 * @returns The policy.
 *
 * @example A poll that must see the service change
 * ```ts
 * import { neverStored } from "./cache_policy.ts";
 * console.log(neverStored("job status poll").store); // "never"
 * ```
 */
export function neverStored(operation: string): CachePolicy {
  return { operation, store: "never" };
}

/** The policy of a request that declares none: successful, parseable answers. */
export const SUCCESSFUL_ANSWERS: CachePolicy = answersOnly("request");

/**
 * Whether an answer may be stored under a policy: 2xx only (a 404 or 410
 * names something that may appear later, a 4xx or 5xx is a failure), a JSON
 * body must parse, and the policy's own check must pass.
 *
 * @param policy The operation's policy.
 * @param response The answer as received.
 * @returns True when the answer is worth replaying.
 *
 * @example
 * ```ts ignore (internal; a fragment of the client's cache path)
 * if (await worthStoring(policy, response)) await cache.write(...);
 * ```
 */
export async function worthStoring(
  policy: CachePolicy,
  response: HttpResponse,
): Promise<boolean> {
  if (policy.store === "never") return false;
  if (response.status < 200 || response.status >= 300) return false;
  const type = response.headers.get("content-type") ?? "";
  if (/[/+]json\b/i.test(type) && response.bytes.byteLength > 0) {
    try {
      JSON.parse(response.text());
    } catch {
      return false;
    }
  }
  if (!policy.isAnswer) return true;
  try {
    return await policy.isAnswer(response);
  } catch {
    // A body the check cannot read is not an answer to keep.
    return false;
  }
}
