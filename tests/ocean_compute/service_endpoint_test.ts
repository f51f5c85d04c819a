/**
 * A DDO's `serviceEndpoint` names the node that serves the asset. A service
 * another node serves is refused before anything is signed, ordered or sent,
 * naming both nodes; tidepool never follows the endpoint by itself (a DDO is
 * untrusted). Checked with a second loopback node the endpoint names, which
 * must see no request, and with the sandbox's own request log.
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { setup, signer } from "./_setup.ts";

/** A copy of a seeded DDO under a new DID whose services name `endpoint`. */
function servedBy(template: Ddo, hex: string, endpoint: string): Ddo {
  const copy = structuredClone(template);
  copy.id = `did:op:${hex.repeat(64 / hex.length)}`;
  for (const service of copy.services) service.serviceEndpoint = endpoint;
  return copy;
}

Deno.test("a service another node serves is refused, naming both nodes, before anything is sent", async () => {
  const context = await setup();
  let strayRequests = 0;
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    strayRequests++;
    return new Response("not this node", { status: 500 });
  });
  const otherUrl = `http://127.0.0.1:${other.addr.port}`;
  try {
    const node = new OceanNode(context.sandbox.url, { progress: false, retry: false });
    const dataset = context.sandbox.ddos.find((d) => d.id === context.pair.dataset.documentId)!;
    const foreign = servedBy(dataset, "f1", otherUrl);
    context.sandbox.publish(foreign);
    const sent = () => context.compute.requests.length;
    const before = sent();

    const refusal = (action: RegExp) => (error: unknown) => {
      assert.ok(error instanceof TidepoolError, String(error));
      assert.match(error.message, action);
      assert.ok(error.message.includes(otherUrl), "names the node that serves it");
      assert.ok(error.message.includes(context.sandbox.url), "names this node");
      assert.match(String(error.hint), /does not follow a DDO's endpoint/);
      return true;
    };
    await assert.rejects(
      () =>
        node.startFreeCompute({
          ...context.request,
          datasets: [{ documentId: foreign.id, serviceId: context.pair.dataset.serviceId }],
        }),
      refusal(/Cannot start a compute job: service .* of did:op:f1f1/),
    );
    const access = dataset.services.find((s) => s.type === "access") ?? dataset.services[0];
    await assert.rejects(
      () => node.initialize({ did: foreign.id, serviceId: access.id, consumer: signer.address }),
      refusal(/Cannot initialize a download/),
    );
    await assert.rejects(
      () =>
        node.download({
          did: foreign.id,
          serviceId: access.id,
          txId: `0x${"1".repeat(64)}`,
          signer,
          dir: "never-written",
        }),
      refusal(/Cannot download/),
    );
    await assert.rejects(
      () =>
        node.initializeCompute({
          consumer: signer.address,
          environment: context.request.environment,
          algorithm: context.request.algorithm,
          datasets: [{ documentId: foreign.id, serviceId: context.pair.dataset.serviceId }],
          payment: { chainId: 31337, token: `0x${"2".repeat(40)}` },
        }),
      refusal(/Cannot initialize a compute job/),
    );
    assert.equal(sent(), before, "no compute, fee or download request reached this node");
    assert.equal(strayRequests, 0, "nothing went to the node the DDO names");
    await assert.rejects(() => Deno.stat("never-written"), Deno.errors.NotFound);
  } finally {
    await other.shutdown();
    await context.sandbox.close();
  }
});

Deno.test("this node's own address is recognised in any spelling; a DDO naming no usable node is refused", async () => {
  const context = await setup();
  try {
    const node = new OceanNode(context.sandbox.url, { progress: false, retry: false });
    const dataset = context.sandbox.ddos.find((d) => d.id === context.pair.dataset.documentId)!;
    const own = servedBy(
      dataset,
      "a1",
      `${context.sandbox.url.toUpperCase().replace("HTTP:", "http:")}/`,
    );
    context.sandbox.publish(own);
    const [job] = await node.startFreeCompute({
      ...context.request,
      datasets: [{ documentId: own.id, serviceId: context.pair.dataset.serviceId }],
    });
    assert.equal(typeof job.jobId, "string", "the same node, with a trailing slash and upper case");

    for (const [hex, endpoint] of [["b2", "ftp://files.example"], ["c3", "node one"]]) {
      const odd = servedBy(dataset, hex, endpoint);
      context.sandbox.publish(odd);
      await assert.rejects(
        () =>
          node.startFreeCompute({
            ...context.request,
            datasets: [{ documentId: odd.id, serviceId: context.pair.dataset.serviceId }],
          }),
        /which is no node address/,
      );
    }
  } finally {
    await context.sandbox.close();
  }
});
