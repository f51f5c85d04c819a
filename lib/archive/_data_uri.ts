/**
 * The data URI of a resource (spec section 2), built without a request.
 *
 * @module
 */

import { type ArchiveContext, requireTarget, segment } from "./_context.ts";

/** `{platform}/{account}/{db}/data/{id}`. */
export function dataUri(context: ArchiveContext, id: string): string {
  const { account, db } = requireTarget(context, "dataUri");
  return context.http.url(`/${segment(account)}/${segment(db)}/data/${segment(id)}`).toString();
}
