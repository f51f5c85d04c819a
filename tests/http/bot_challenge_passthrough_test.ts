/**
 * A bot challenge in front of a signed or keyed endpoint must reach the
 * user as a BotChallengeError, not as an AuthError about keys or allowlists.
 */
import assert from "node:assert/strict";
import { Archive, BotChallengeError, OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";

const challenge = () =>
  Promise.resolve(
    new Response("<!DOCTYPE html><title>Just a moment...</title>", {
      status: 403,
      headers: { "content-type": "text/html", "cf-mitigated": "challenge" },
    }),
  );

/** A fetch that challenges the requests `when` picks and passes the rest through. */
function challenging(when: (request: Request) => boolean): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    return when(request) ? challenge() : fetch(input, init);
  };
}

const quiet = { progress: false as const, warn: () => {}, retry: false as const };

Deno.test("a challenged compute start is a BotChallengeError", async () => {
  const sandbox = startOceanSandbox({ count: 60 });
  try {
    const node = new OceanNode(sandbox.url, {
      ...quiet,
      fetch: challenging((r) => r.method === "POST" && r.url.includes("freeCompute")),
    });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const example = sandbox.computeExample();
    await assert.rejects(
      node.startFreeCompute({
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
      }),
      (error: unknown) => error instanceof BotChallengeError,
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("a challenged archive read or write is a BotChallengeError", async () => {
  const archive = new Archive("http://127.0.0.1:9", {
    ...quiet,
    account: "shinano",
    db: "letters",
    apiKey: "pk_test.challengeSecret123",
    fetch: challenging(() => true),
  });
  await assert.rejects(archive.search({ q: "map" }), BotChallengeError);
  await assert.rejects(
    archive.createResource({ slug: "x", type: "item", title: "x" }),
    BotChallengeError,
  );
});
