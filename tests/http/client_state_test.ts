/**
 * lib/http/_client_state.ts: a client's private state is found only from
 * the client it was bound to; anything else is refused with the message
 * and hint its kind of client gives.
 */

import assert from "node:assert/strict";
import { clientStates } from "../../lib/http/_client_state.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

Deno.test("a state is found from its own client only; another object is refused with the hint", () => {
  const states = clientStates<{ url: string }, { token: string }>({
    message: "Not a Thing client",
    hint: "Pass the client made by new Thing(url)",
  });
  const client = { url: "http://127.0.0.1:1" };
  const twin = { url: "http://127.0.0.1:1" };
  states.bind(client, { token: "a" });
  assert.deepEqual(states.of(client), { token: "a" });
  for (const other of [twin, { url: "x" }]) {
    assert.throws(() => states.of(other), (error: unknown) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, /^Not a Thing client/);
      assert.equal(error.hint, "Pass the client made by new Thing(url)");
      return true;
    });
  }
  // Each kind of client keeps its own states.
  const others = clientStates<{ url: string }, number>({ message: "m", hint: "h" });
  assert.throws(() => others.of(client), /m/);
});
