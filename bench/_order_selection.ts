/**
 * The selection set tidepool asks of each order, read from a request it
 * sent: what the subgraph bench's alternatives ask for too, so every row of
 * that bench does the same work.
 */

import { Kind, parse, print } from "graphql";

/**
 * The selection of the `orders` collection (aliased or not; `_meta` aside)
 * in a GraphQL query, printed as GraphQL.
 *
 * @param query The query of a recorded request body.
 * @returns The selection set, braces included.
 */
export function orderSelection(query: string): string {
  for (const definition of parse(query).definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const field of definition.selectionSet.selections) {
      if (field.kind === Kind.FIELD && field.name.value === "orders" && field.selectionSet) {
        return print(field.selectionSet);
      }
    }
  }
  throw new Error(`No orders selection in the request: ${query.slice(0, 200)}`);
}
