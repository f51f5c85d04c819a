/**
 * A request marked `clientHeaders: false` (one to another origin than the
 * service's) carries none of the client's configured headers, only the user
 * agent and its own; every other request carries them as before.
 */

import assert from "node:assert/strict";
import { prepareRequest } from "../../lib/http/request.ts";

const configured = {
  "user-agent": "tidepool/test",
  "x-api-key": "k3y-0000-1111",
  Authorization: "Bearer t0k3n",
};

Deno.test("clientHeaders: false leaves out the client's headers but the user agent", () => {
  const { headers } = prepareRequest(
    { path: "http://other.example/a", clientHeaders: false, headers: { accept: "*/*" } },
    "http://source.example",
    configured,
  );
  assert.deepEqual(headers, { "user-agent": "tidepool/test", accept: "*/*" });
});

Deno.test("by default the client's headers go with the request", () => {
  const { headers } = prepareRequest({ path: "/a" }, "http://source.example", configured);
  assert.deepEqual(headers, configured);
});
