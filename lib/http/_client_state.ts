/**
 * The private state of a service client, kept beside the client rather
 * than on it, so that the client's actions (`search(archive, parameters)`,
 * `orders(subgraph, options)`) are free functions that reach it only
 * through the client it was made for.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

/** Binds each client of one kind to its state, and finds it again. */
export interface ClientStates<Client extends object, State> {
  /** Ties a new client to its state; the client's constructor calls it once. */
  bind(client: Client, state: State): void;
  /** The state of a client; anything the constructor did not make is refused. */
  of(client: Client): State;
}

/**
 * The states of one kind of client.
 *
 * @param refusal What an action says when it is given something else: the message and the hint.
 * @returns The binder and the finder.
 */
export function clientStates<Client extends object, State>(
  refusal: { message: string; hint: string },
): ClientStates<Client, State> {
  const states = new WeakMap<Client, State>();
  return {
    bind: (client, state) => void states.set(client, state),
    of: (client) => {
      const state = states.get(client);
      if (state === undefined) throw new TidepoolError(refusal.message, { hint: refusal.hint });
      return state;
    },
  };
}
