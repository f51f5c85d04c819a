/**
 * The job list with metrics is signed, as the spec asks, or carries the
 * consumer's bearer token from POST /api/services/auth/token; an address
 * alone is refused before anything is sent. The token is a secret: it prints
 * as its address, goes only to the node that issued it, and no error shows
 * it, even when a hostile node echoes it back.
 */

import assert from "node:assert/strict";
import { hexToBytes, keccak256, recoverMessageAddress, stringToBytes } from "viem";
import { AuthError, TidepoolError } from "../../lib/errors/errors.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { startFreeCompute } from "../../lib/ocean/compute/mod.ts";
import { setup, signer } from "./_setup.ts";

/** A client of the sandbox that keeps every request it sends (URL and Authorization header). */
function recordingNode(url: string) {
  const sent: { url: URL; authorization: string | null }[] = [];
  const node = new OceanNode(url, {
    progress: false,
    retry: false,
    fetch: (input, init) => {
      const request = new Request(input, init);
      sent.push({ url: new URL(request.url), authorization: request.headers.get("authorization") });
      return fetch(request);
    },
  });
  return { node, sent };
}

Deno.test("jobs with metrics: signed by the signer, refused for a bare address before sending", async () => {
  const context = await setup();
  try {
    await startFreeCompute(context.http, context.request, context.environments);
    const { node, sent } = recordingNode(context.sandbox.url);
    await assert.rejects(
      () => node.jobs(signer.address, { includeMetrics: true }),
      (error: unknown) =>
        error instanceof TidepoolError && /asks for a signature/.test(error.message) &&
        /createAuthToken/.test(String(error.hint)),
    );
    assert.equal(sent.length, 0, "nothing sent for an address alone");

    const table = await node.jobs(signer, { includeMetrics: true });
    assert.equal(table.numRows(), 1);
    const metrics = table.get("metrics", 0) as { runSeconds: number } | null;
    assert.equal(typeof metrics?.runSeconds, "number");
    const list = sent.find((s) => s.url.pathname === "/api/services/compute")!.url.searchParams;
    // Checked here with viem, not with tidepool: the signature recovers to the signer.
    const hash = hexToBytes(keccak256(
      stringToBytes(`${list.get("consumerAddress")}${list.get("nonce")}getComputeStatus`),
    ));
    const recovered = await recoverMessageAddress({
      // As ocean-node reads it: the hash as a number's bytes, no leading zero byte.
      message: { raw: hash.subarray(Math.max(0, hash.findIndex((byte) => byte !== 0))) },
      signature: list.get("signature") as `0x${string}`,
    });
    assert.equal(recovered, signer.address);
    // Without metrics the list stays unsigned, as the spec says.
    await node.jobs(signer);
    assert.equal(sent.at(-1)!.url.searchParams.get("signature"), null);
  } finally {
    await context.sandbox.close();
  }
});

Deno.test("createAuthToken: a token stands in for the signature and never shows", async () => {
  const context = await setup();
  try {
    await startFreeCompute(context.http, context.request, context.environments);
    const { node, sent } = recordingNode(context.sandbox.url);
    const token = await node.createAuthToken({ signer });
    assert.equal(token.address, signer.address);
    const header = sent.find((s) => s.url.pathname === "/api/services/auth/token");
    assert.ok(header, "the token request went to the node");
    const secret = token.header(context.sandbox.url).slice("Bearer ".length);
    for (const shown of [String(token), JSON.stringify(token), Deno.inspect(token)]) {
      assert.ok(!shown.includes(secret), `the token shows in ${shown}`);
      assert.match(shown, new RegExp(signer.address));
    }

    const before = sent.length;
    const table = await node.jobs(signer.address, { includeMetrics: true, token });
    assert.equal(table.numRows(), 1);
    assert.notEqual(table.get("metrics", 0), null);
    // The node's version is read once for the table's provenance (GET /); nothing else but the list.
    const list = sent.slice(before).filter((s) => s.url.pathname !== "/");
    assert.deepEqual(list.map((s) => s.url.pathname), ["/api/services/compute"], "no nonce read");
    assert.equal(list[0].authorization, `Bearer ${secret}`);
    assert.equal(list[0].url.searchParams.get("signature"), null);

    // The node checks the token itself: one for another address is refused by it.
    assert.equal(
      (await fetch(
        `${context.sandbox.url}/api/services/compute?consumerAddress=0x0000000000000000000000000000000000000001&includeMetrics=true`,
        { headers: { authorization: `Bearer ${secret}` } },
      )).status,
      401,
    );
    await assert.rejects(
      () =>
        node.jobs("0x0000000000000000000000000000000000000001", { includeMetrics: true, token }),
      /the token is for/,
    );
    const other = new OceanNode("http://127.0.0.1:9", { progress: false, retry: false });
    await assert.rejects(
      () => other.jobs(signer.address, { includeMetrics: true, token }),
      /to another node/,
    );
  } finally {
    await context.sandbox.close();
  }
});

Deno.test("a node that echoes the token in its refusal never gets it printed", async () => {
  const context = await setup();
  let echoed = "";
  const hostile = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/services/compute") {
      echoed = request.headers.get("authorization") ?? "";
      return new Response(
        `Invalid token: ${echoed} for ${url.searchParams.get("consumerAddress")}`,
        {
          status: 401,
        },
      );
    }
    return fetch(`${context.sandbox.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  });
  try {
    const node = new OceanNode(`http://127.0.0.1:${hostile.addr.port}`, {
      progress: false,
      retry: false,
    });
    const token = await node.createAuthToken({ signer });
    const error = await node.jobs(signer.address, { includeMetrics: true, token }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(error instanceof AuthError, String(error));
    const secret = echoed.replace(/^Bearer /, "");
    assert.ok(secret.length > 20, "the node saw the token");
    const printed = [error.message, String(error.details), error.body, Deno.inspect(error)];
    for (const text of printed) assert.ok(!text.includes(secret), `the token shows in: ${text}`);
  } finally {
    await hostile.shutdown();
    await context.sandbox.close();
  }
});

Deno.test("a token and the signed metrics list stay out of a recording", async () => {
  const context = await setup();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-token-cache-" });
  try {
    await startFreeCompute(context.http, context.request, context.environments);
    const node = new OceanNode(context.sandbox.url, {
      progress: false,
      retry: false,
      cache: { dir, mode: "record" },
    });
    const token = await node.createAuthToken({ signer });
    await node.jobs(signer.address, { includeMetrics: true, token });
    await node.jobs(signer, { includeMetrics: true });
    const secret = token.header(context.sandbox.url).slice("Bearer ".length);
    const files: string[] = [];
    const walk = async (path: string) => {
      for await (const entry of Deno.readDir(path)) {
        const child = `${path}/${entry.name}`;
        if (entry.isDirectory) await walk(child);
        else files.push(child);
      }
    };
    await walk(dir);
    for (const file of files) {
      const text = await Deno.readTextFile(file);
      assert.ok(!text.includes(secret), `the token is in ${file}`);
      assert.ok(!text.includes("includeMetrics"), `a metrics list was recorded in ${file}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await context.sandbox.close();
  }
});
