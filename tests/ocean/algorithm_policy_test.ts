/**
 * A dataset's algorithm policy is checked from the DDOs before anything is
 * signed or sent: a job the dataset would refuse never reaches the node.
 */

import assert from "node:assert/strict";
import { OceanNode, signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { algorithmRefusal } from "../../lib/ocean/compute/_algorithm_policy.ts";
import { SANDBOX_WALLET_KEY, startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

function dataset(compute: Record<string, unknown>): Ddo {
  return {
    id: "did:op:data",
    version: "4.1.0",
    services: [{ id: "svc", type: "compute", compute }],
  } as unknown as Ddo;
}
const ALGO = {
  id: "did:op:algo",
  version: "4.1.0",
  indexedMetadata: { nft: { owner: "0xAbCd000000000000000000000000000000000001" } },
} as unknown as Ddo;

Deno.test("algorithmRefusal: missing lists admit, empty lists refuse, listed DIDs, publishers and * admit", () => {
  const refuse = (compute: Record<string, unknown>) =>
    algorithmRefusal(dataset(compute), "svc", ALGO);
  assert.equal(refuse({ allowRawAlgorithm: false }), undefined);
  assert.match(
    refuse({ allowRawAlgorithm: false, publisherTrustedAlgorithms: [] })!,
    /trusts no algorithm/,
  );
  assert.match(
    refuse({ publisherTrustedAlgorithms: [], publisherTrustedAlgorithmPublishers: [] })!,
    /trusts no algorithm/,
  );
  assert.equal(refuse({ publisherTrustedAlgorithms: [{ did: "did:op:algo" }] }), undefined);
  assert.equal(refuse({ publisherTrustedAlgorithms: ["*"] }), undefined);
  assert.equal(
    refuse({
      publisherTrustedAlgorithms: [],
      publisherTrustedAlgorithmPublishers: ["0xabcd000000000000000000000000000000000001"],
    }),
    undefined,
  );
  assert.match(
    refuse({ publisherTrustedAlgorithms: [{ did: "did:op:other" }] })!,
    /does not trust algorithm did:op:algo \(it trusts algorithms did:op:other\)/,
  );
  assert.equal(refuse({ allowRawAlgorithm: true, publisherTrustedAlgorithms: [] }), undefined);
  assert.match(algorithmRefusal(dataset({}), "nope", ALGO)!, /has no service nope/);
});

Deno.test("startFreeCompute: a dataset that trusts no algorithm is refused before the node sees a request", async () => {
  const sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
  const sent: string[] = [];
  try {
    const { dataset: ref, algorithm, environment } = sandbox.computeExample();
    // The example dataset, with its policy closed: both lists empty, no raw algorithms.
    const ddo = sandbox.ddos.find((d) => d.id === ref.documentId)!;
    const service = ddo.services.find((s) => s.id === ref.serviceId)!;
    service.compute = {
      ...service.compute!,
      allowRawAlgorithm: false,
      publisherTrustedAlgorithms: [],
      publisherTrustedAlgorithmPublishers: [],
    };
    const node = new OceanNode(sandbox.url, {
      progress: false,
      retry: false,
      fetch: (input, init) => {
        sent.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    await assert.rejects(
      node.startFreeCompute({
        signer,
        environment,
        algorithm,
        datasets: [ref],
        resources: [{ id: "cpu", amount: 1 }],
        maxJobDuration: 60,
      }),
      new RegExp(`Cannot start compute job: dataset ${ref.documentId} trusts no algorithm`),
    );
    assert.ok(!sent.some((s) => s.startsWith("POST")), sent.join("\n"));
    assert.ok(!sent.some((s) => s.includes("/nonce")), "nothing was signed");
  } finally {
    await sandbox.close();
  }
});
